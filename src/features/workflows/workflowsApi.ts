import type { Static } from '@sinclair/typebox';
import type { PageOf } from '../../../server/src/http/common.schemas';
import type {
  PublicWorkflowDetailOut,
  PublicWorkflowOut,
  WorkflowCreateIn,
  WorkflowInfoOut,
  WorkflowListQuery,
  WorkflowOut,
  WorkflowSummaryOut,
  WorkflowUpdateIn,
} from '../../../server/src/modules/workflows/workflows.schemas';
import type { MessageOut } from '../../../server/src/http/common.schemas';
import { baseApi } from '../../services/baseApi';
import { ifMatch } from './versioning';

// Spec area "Workflows": my workflows, one workflow with its steps and variables, the gallery.
// The editor reads everything from getWorkflow; every write elsewhere invalidates it by id.

export type PublicWorkflow = Static<typeof PublicWorkflowOut>;
export type PublicWorkflowDetail = PublicWorkflowDetailOut;
export type WorkflowListArgs = Partial<WorkflowListQuery>;
export interface PublicListArgs {
  page?: number;
  page_size?: number;
  q?: string;
}

const clean = <T extends object>(args: T) => Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;

export const workflowsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listWorkflows: build.query<PageOf<WorkflowSummaryOut>, WorkflowListArgs>({
      query: (args) => ({ url: '/workflows', params: clean(args) }),
      providesTags: (result) => [{ type: 'Workflow', id: 'LIST' }, ...(result?.items ?? []).map((w) => ({ type: 'Workflow' as const, id: w.id }))],
    }),
    listPublicWorkflows: build.query<PageOf<PublicWorkflow>, PublicListArgs>({
      query: (args) => ({ url: '/workflows/public', params: clean(args) }),
      providesTags: [{ type: 'Workflow', id: 'PUBLIC' }],
    }),
    // The gallery's preview: the published copy, for everyone (no token, like the list). Any
    // publish or unpublish invalidates it with the list.
    getPublicWorkflow: build.query<PublicWorkflowDetail, string>({
      query: (id) => `/workflows/public/${id}`,
      providesTags: [{ type: 'Workflow', id: 'PUBLIC' }],
    }),
    getWorkflow: build.query<WorkflowOut, string>({
      query: (id) => `/workflows/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Workflow', id }],
    }),
    getWorkflowInfo: build.query<WorkflowInfoOut, string>({
      query: (id) => `/workflows/${id}/info`,
      providesTags: (_r, _e, id) => [{ type: 'Workflow', id }],
    }),
    createWorkflow: build.mutation<WorkflowOut, WorkflowCreateIn>({
      query: (body) => ({ url: '/workflows', method: 'POST', body }),
      invalidatesTags: [{ type: 'Workflow', id: 'LIST' }],
    }),
    updateWorkflow: build.mutation<WorkflowOut, { id: string; version?: number; changes: Omit<WorkflowUpdateIn, 'version'> }>({
      query: ({ id, version, changes }) => ({ url: `/workflows/${id}`, method: 'PUT', body: changes, headers: ifMatch(version) }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'Workflow', id },
        { type: 'Workflow', id: 'LIST' },
        { type: 'Commit', id },
      ],
    }),
    // Delete and publish carry the version the person saw: if the workflow changed since (another
    // tab, an agent), the server answers 409 instead of deleting or publishing what they never saw.
    deleteWorkflow: build.mutation<MessageOut, { id: string; version?: number }>({
      query: ({ id, version }) => ({ url: `/workflows/${id}`, method: 'DELETE', headers: ifMatch(version) }),
      invalidatesTags: [
        { type: 'Workflow', id: 'LIST' },
        { type: 'Workflow', id: 'PUBLIC' },
      ],
    }),
    publishWorkflow: build.mutation<WorkflowOut, { id: string; published: boolean; version?: number }>({
      query: ({ id, published, version }) => ({ url: `/workflows/${id}/publish`, method: 'POST', params: { published }, headers: ifMatch(version) }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'Workflow', id },
        { type: 'Workflow', id: 'LIST' },
        { type: 'Workflow', id: 'PUBLIC' },
      ],
      // The toolbar says at once whether the gallery's copy is current, before the refetch.
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(
            workflowsApi.util.updateQueryData('getWorkflow', id, (draft) => {
              draft.visibility = data.visibility;
              draft.published_at = data.published_at;
              draft.published_version = data.published_version;
            }),
          );
        } catch {
          // A refused publish is shown by the notices; the cache keeps what the server said before.
        }
      },
    }),
  }),
});

export const {
  useListWorkflowsQuery,
  useListPublicWorkflowsQuery,
  useGetPublicWorkflowQuery,
  useGetWorkflowQuery,
  useGetWorkflowInfoQuery,
  useCreateWorkflowMutation,
  useUpdateWorkflowMutation,
  useDeleteWorkflowMutation,
  usePublishWorkflowMutation,
} = workflowsApi;
