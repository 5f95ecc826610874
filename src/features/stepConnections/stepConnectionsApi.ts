import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import type { MessageOut } from '../../../server/src/http/common.schemas';
import type { AppDispatch } from '../../app/store';
import { baseApi } from '../../services/baseApi';
import { editTags } from '../steps/stepsApi';
import { afterEdit } from '../workflows/cacheUpdates';
import { ifMatch } from '../workflows/versioning';

// Spec area "Step connections": delete several steps at once (the server rewires what read from
// them and warns about what it could not), insert catalogue steps by tags.

export interface DeleteBatchOut extends MessageOut {
  deleted: string[];
  rewired: { step_id: string; inputs: string[] }[];
  workflow_version: number;
}

export interface InsertByTagsOut extends MessageOut {
  steps: StepOut[];
  workflow_version: number;
}

export const stepConnectionsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    deleteSteps: build.mutation<DeleteBatchOut, { workflowId: string; stepIds: string[]; version?: number }>({
      // The cached workflow lets go of the steps before the call counts as done, that is before its
      // tags are invalidated: what refetches then (the cost estimates, the selected step's variable
      // fields) already sees the deleted steps as gone, and asks nothing about them.
      queryFn: async ({ workflowId, stepIds, version }, api, _extra, baseQuery) => {
        const result = await baseQuery({
          url: `/workflows/${workflowId}/steps/batch`,
          method: 'DELETE',
          params: { step_ids: stepIds.join(',') },
          headers: ifMatch(version),
        });
        if (result.error) return { error: result.error, meta: result.meta };
        const data = result.data as DeleteBatchOut;
        (api.dispatch as AppDispatch)(
          afterEdit(workflowId, data.workflow_version, (draft) => {
            const gone = new Set(data.deleted);
            const rewired = new Map(data.rewired.map((r) => [r.step_id, r.inputs]));
            draft.steps = draft.steps.filter((s) => !gone.has(s.id));
            for (const step of draft.steps) step.inputs = rewired.get(step.id) ?? step.inputs.filter((id) => !gone.has(id));
            draft.step_count = draft.steps.length;
          }),
        );
        return { data, meta: result.meta };
      },
      invalidatesTags: (_r, _e, { workflowId }) => editTags(workflowId),
    }),
    insertStepsByTags: build.mutation<
      InsertByTagsOut,
      { workflowId: string; tags: string[]; afterStepId?: string; position?: { x: number; y: number }; version?: number }
    >({
      query: ({ workflowId, tags, afterStepId, position, version }) => ({
        url: `/workflows/${workflowId}/steps/insert-by-tags`,
        method: 'POST',
        body: { tags, after_step_id: afterStepId, position },
        headers: ifMatch(version),
      }),
      invalidatesTags: (_r, _e, { workflowId }) => editTags(workflowId),
    }),
  }),
});

export const { useDeleteStepsMutation, useInsertStepsByTagsMutation } = stepConnectionsApi;
