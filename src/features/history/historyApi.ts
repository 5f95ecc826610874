import type { Static } from '@sinclair/typebox';
import type { PageOf } from '../../../server/src/http/common.schemas';
import type { CommitDetailOut, CommitOut } from '../../../server/src/modules/history/history.schemas';
import type { WorkflowOut } from '../../../server/src/modules/workflows/workflows.schemas';
import type { FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta, QueryReturnValue } from '@reduxjs/toolkit/query';
import type { AppDispatch } from '../../app/store';
import { baseApi } from '../../services/baseApi';
import { patchWorkflow } from '../workflows/cacheUpdates';
import { ifMatch, noteVersion } from '../workflows/versioning';

// Spec area "History": every edit is a commit; undo/redo walk them, restore brings one back as a
// new commit. Each answers the whole workflow, which replaces the cached one at once.

export type Commit = Static<typeof CommitOut>;
export type CommitDetail = Static<typeof CommitDetailOut>;

const tags = (workflowId: string) => [
  { type: 'Workflow' as const, id: workflowId },
  { type: 'Step' as const, id: workflowId },
  { type: 'Variable' as const, id: workflowId },
  { type: 'Commit' as const, id: workflowId },
  { type: 'Workflow' as const, id: 'LIST' },
];

type HistoryArgs = { workflowId: string };
type MaybePromise<T> = T | PromiseLike<T>;
type BaseQuery = (arg: string | FetchArgs) => MaybePromise<QueryReturnValue<unknown, FetchBaseQueryError, FetchBaseQueryMeta>>;

/**
 * Sends an undo / redo / restore and puts the answered workflow in the cache before the call
 * counts as done, that is before its tags are invalidated: what refetches then (the selected
 * step's variable fields) already sees a step the undo removed as gone, and asks nothing about it.
 */
function replacingWorkflow<A extends HistoryArgs>(request: (args: A) => string | FetchArgs) {
  return async (args: A, api: { dispatch: AppDispatch }, _extra: unknown, baseQuery: BaseQuery) => {
    const result = await baseQuery(request(args));
    if (result.error) return { error: result.error, meta: result.meta };
    const data = result.data as WorkflowOut;
    noteVersion(args.workflowId, data.version);
    patchWorkflow(api.dispatch, args.workflowId, (draft) => {
      const { message: _m, warnings: _w, modal: _x, ...workflow } = data;
      Object.assign(draft, workflow);
    });
    return { data, meta: result.meta };
  };
}

export const historyApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listCommits: build.query<PageOf<Commit>, { workflowId: string; page?: number; page_size?: number }>({
      query: ({ workflowId, page = 1, page_size = 50 }) => ({
        url: '/workflow-history/commits',
        method: 'POST',
        body: { workflow_id: workflowId, page, page_size },
      }),
      providesTags: (_r, _e, { workflowId }) => [{ type: 'Commit', id: workflowId }],
    }),
    getCommit: build.query<CommitDetail, string>({
      query: (id) => `/workflow-history/commits/${id}`,
    }),
    undo: build.mutation<WorkflowOut, { workflowId: string; version?: number }>({
      queryFn: replacingWorkflow(({ workflowId, version }) => ({
        url: '/workflow-history/undo',
        method: 'POST',
        body: { workflow_id: workflowId, ...(version ? { version } : {}) },
      })),
      invalidatesTags: (_r, _e, { workflowId }) => tags(workflowId),
    }),
    redo: build.mutation<WorkflowOut, { workflowId: string; version?: number }>({
      queryFn: replacingWorkflow(({ workflowId, version }) => ({
        url: '/workflow-history/redo',
        method: 'POST',
        body: { workflow_id: workflowId, ...(version ? { version } : {}) },
      })),
      invalidatesTags: (_r, _e, { workflowId }) => tags(workflowId),
    }),
    restoreCommit: build.mutation<WorkflowOut, { workflowId: string; commitId: string; version?: number }>({
      queryFn: replacingWorkflow<{ workflowId: string; commitId: string; version?: number }>(({ commitId, version }) => ({
        url: `/workflow-history/restore/${commitId}`,
        method: 'POST',
        headers: ifMatch(version),
      })),
      invalidatesTags: (_r, _e, { workflowId }) => tags(workflowId),
    }),
  }),
});

export const { useListCommitsQuery, useGetCommitQuery, useUndoMutation, useRedoMutation, useRestoreCommitMutation } = historyApi;
