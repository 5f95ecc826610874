import type { Static } from '@sinclair/typebox';
import type { MessageOut } from '../../../server/src/http/common.schemas';
import type {
  VariableCreateIn,
  VariableFieldsOut,
  VariableOut,
  VariableUpdateIn,
  VariableWithVersionOut,
} from '../../../server/src/modules/variables/variables.schemas';
import { baseApi } from '../../services/baseApi';
import { afterEdit } from '../workflows/cacheUpdates';
import { ifMatch } from '../workflows/versioning';
import { stepGoneFromCache } from '../workflows/stepGone';

// Spec area "Variables": typed workflow variables ({{var.NAME}}); a secret's value never comes back.

export type VariableWithVersion = Static<typeof VariableWithVersionOut>;
export type VariableFields = Static<typeof VariableFieldsOut>;

const tags = (workflowId: string) => [
  { type: 'Workflow' as const, id: workflowId },
  { type: 'Variable' as const, id: workflowId },
  { type: 'Commit' as const, id: workflowId },
];

export const variablesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listVariables: build.query<VariableOut[], string>({
      query: (workflowId) => `/workflows/${workflowId}/variables`,
      providesTags: (_r, _e, workflowId) => [{ type: 'Variable', id: workflowId }],
    }),
    createVariable: build.mutation<VariableWithVersion, { workflowId: string; version?: number; variable: VariableCreateIn }>({
      query: ({ workflowId, version, variable }) => ({ url: `/workflows/${workflowId}/variables`, method: 'POST', body: variable, headers: ifMatch(version) }),
      invalidatesTags: (_r, _e, { workflowId }) => tags(workflowId),
      async onQueryStarted({ workflowId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(afterEdit(workflowId, data.workflow_version));
      },
    }),
    updateVariable: build.mutation<VariableWithVersion, { workflowId: string; variableId: string; version?: number; changes: VariableUpdateIn }>({
      query: ({ workflowId, variableId, version, changes }) => ({
        url: `/workflows/${workflowId}/variables/${variableId}`,
        method: 'PUT',
        body: changes,
        headers: ifMatch(version),
      }),
      invalidatesTags: (_r, _e, { workflowId }) => tags(workflowId),
      async onQueryStarted({ workflowId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(afterEdit(workflowId, data.workflow_version));
      },
    }),
    deleteVariable: build.mutation<MessageOut, { workflowId: string; variableId: string; version?: number }>({
      query: ({ workflowId, variableId, version }) => ({
        url: `/workflows/${workflowId}/variables/${variableId}`,
        method: 'DELETE',
        headers: ifMatch(version),
      }),
      invalidatesTags: (_r, _e, { workflowId }) => tags(workflowId),
    }),
    /** What a step may reference: variables and the columns of its input. */
    getVariableFields: build.query<VariableFields, { workflowId: string; stepId: string }>({
      // A step the cached workflow no longer has (just undone or deleted, its settings still open
      // for a moment) references nothing: asking the server would only answer "Step not found".
      queryFn: async ({ workflowId, stepId }, api, _extra, baseQuery) => {
        if (stepGoneFromCache(api.getState(), workflowId, stepId))
          return { data: { variables: [], fields: [], notes: [], preview_step_ids: [] } satisfies VariableFields };
        const result = await baseQuery(`/workflows/${workflowId}/steps/${stepId}/variable-fields`);
        return result.error ? { error: result.error, meta: result.meta } : { data: result.data as VariableFields, meta: result.meta };
      },
      providesTags: (_r, _e, { workflowId }) => [
        { type: 'Variable', id: workflowId },
        { type: 'Step', id: workflowId },
      ],
    }),
  }),
});

export const { useListVariablesQuery, useCreateVariableMutation, useUpdateVariableMutation, useDeleteVariableMutation, useGetVariableFieldsQuery } =
  variablesApi;
