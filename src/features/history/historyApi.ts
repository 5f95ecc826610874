import type { Static } from '@sinclair/typebox';
import type { PageOf } from '../../../server/src/http/common.schemas';
import type { CommitDetailOut, CommitOut } from '../../../server/src/modules/history/history.schemas';
import type { WorkflowOut } from '../../../server/src/modules/workflows/workflows.schemas';
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

async function replaceWorkflow(
  workflowId: string,
  dispatch: Parameters<typeof patchWorkflow>[0],
  queryFulfilled: Promise<{ data: WorkflowOut }>,
) {
  try {
    const { data } = await queryFulfilled;
    noteVersion(workflowId, data.version);
    patchWorkflow(dispatch, workflowId, (draft) => {
      const { message: _m, warnings: _w, modal: _x, ...workflow } = data;
      Object.assign(draft, workflow);
    });
  } catch {
    // Shown by the notices.
  }
}

export const historyApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listCommits: build.query<PageOf<Commit>, { workflowId: string; page?: number; page_size?: number }>({
      query: ({ workflowId, page = 1, page_size = 50 }) => ({ url: '/workflow-history/commits', method: 'POST', body: { workflow_id: workflowId, page, page_size } }),
      providesTags: (_r, _e, { workflowId }) => [{ type: 'Commit', id: workflowId }],
    }),
    getCommit: build.query<CommitDetail, string>({
      query: (id) => `/workflow-history/commits/${id}`,
    }),
    undo: build.mutation<WorkflowOut, { workflowId: string; version?: number }>({
      query: ({ workflowId, version }) => ({ url: '/workflow-history/undo', method: 'POST', body: { workflow_id: workflowId, ...(version ? { version } : {}) } }),
      invalidatesTags: (_r, _e, { workflowId }) => tags(workflowId),
      onQueryStarted: ({ workflowId }, { dispatch, queryFulfilled }) => replaceWorkflow(workflowId, dispatch, queryFulfilled),
    }),
    redo: build.mutation<WorkflowOut, { workflowId: string; version?: number }>({
      query: ({ workflowId, version }) => ({ url: '/workflow-history/redo', method: 'POST', body: { workflow_id: workflowId, ...(version ? { version } : {}) } }),
      invalidatesTags: (_r, _e, { workflowId }) => tags(workflowId),
      onQueryStarted: ({ workflowId }, { dispatch, queryFulfilled }) => replaceWorkflow(workflowId, dispatch, queryFulfilled),
    }),
    restoreCommit: build.mutation<WorkflowOut, { workflowId: string; commitId: string; version?: number }>({
      query: ({ commitId, version }) => ({ url: `/workflow-history/restore/${commitId}`, method: 'POST', headers: ifMatch(version) }),
      invalidatesTags: (_r, _e, { workflowId }) => tags(workflowId),
      onQueryStarted: ({ workflowId }, { dispatch, queryFulfilled }) => replaceWorkflow(workflowId, dispatch, queryFulfilled),
    }),
  }),
});

export const { useListCommitsQuery, useGetCommitQuery, useUndoMutation, useRedoMutation, useRestoreCommitMutation } = historyApi;
