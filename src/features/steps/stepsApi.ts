import type { Static } from '@sinclair/typebox';
import type { FromTemplateQuery, StepCreateIn, StepOut, StepUpdateIn, StepWithVersionOut } from '../../../server/src/modules/steps/steps.schemas';
import type { AppDispatch } from '../../app/store';
import { baseApi } from '../../services/baseApi';
import { afterEdit, upsertStep } from '../workflows/cacheUpdates';
import { ifMatch } from '../workflows/versioning';

// Spec area "Steps": add a step from the catalogue, change it, set its params. Each answer carries
// the workflow version it produced, which becomes the cached workflow's version at once.

export type StepWithVersion = Static<typeof StepWithVersionOut>;

/** Tags a step write invalidates: the workflow (steps, can_undo), its history. */
const editTags = (workflowId: string) => [
  { type: 'Workflow' as const, id: workflowId },
  { type: 'Step' as const, id: workflowId },
  { type: 'Commit' as const, id: workflowId },
  { type: 'Workflow' as const, id: 'LIST' },
];

async function applyStep(workflowId: string, dispatch: AppDispatch, queryFulfilled: Promise<{ data: StepWithVersion }>) {
  try {
    const { data } = await queryFulfilled;
    dispatch(afterEdit(workflowId, data.workflow_version, (draft) => upsertStep(draft, data)));
  } catch {
    // The notices show why; the invalidation refetches the truth.
  }
}

export const stepsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listSteps: build.query<StepOut[], string>({
      query: (workflowId) => ({ url: '/workflow-steps', params: { workflow_id: workflowId } }),
      providesTags: (_r, _e, workflowId) => [{ type: 'Step', id: workflowId }],
    }),
    /** A step of a catalogue type with some params already given (e.g. the file to import). */
    addStep: build.mutation<StepWithVersion, StepCreateIn & { version?: number }>({
      query: ({ version, ...body }) => ({ url: '/workflow-steps', method: 'POST', body, headers: ifMatch(version) }),
      invalidatesTags: (_r, _e, { workflow_id }) => editTags(workflow_id),
      onQueryStarted: ({ workflow_id }, { dispatch, queryFulfilled }) => applyStep(workflow_id, dispatch, queryFulfilled),
    }),
    addStepFromTemplate: build.mutation<StepWithVersion, Static<typeof FromTemplateQuery> & { version?: number }>({
      query: ({ version, ...params }) => ({ url: '/workflow-steps/from-template', method: 'POST', params, headers: ifMatch(version) }),
      invalidatesTags: (_r, _e, { workflow_id }) => editTags(workflow_id),
      onQueryStarted: ({ workflow_id }, { dispatch, queryFulfilled }) => applyStep(workflow_id, dispatch, queryFulfilled),
    }),
    updateStep: build.mutation<StepWithVersion, { workflowId: string; stepId: string; version?: number; changes: StepUpdateIn }>({
      query: ({ stepId, version, changes }) => ({ url: `/workflow-steps/${stepId}`, method: 'PUT', body: changes, headers: ifMatch(version) }),
      invalidatesTags: (_r, _e, { workflowId }) => editTags(workflowId),
      onQueryStarted: ({ workflowId }, { dispatch, queryFulfilled }) => applyStep(workflowId, dispatch, queryFulfilled),
    }),
    /** Merges param values (null removes one); 422 errors point at the param: loc [body, param_inputs, NAME]. */
    patchStepParams: build.mutation<StepWithVersion, { workflowId: string; stepId: string; version?: number; params: Record<string, unknown> }>({
      query: ({ stepId, version, params }) => ({
        url: `/workflow-steps/${stepId}/param-inputs/partial`,
        method: 'PATCH',
        body: { param_inputs: params },
        headers: ifMatch(version),
      }),
      invalidatesTags: (_r, _e, { workflowId }) => editTags(workflowId),
      onQueryStarted: ({ workflowId }, { dispatch, queryFulfilled }) => applyStep(workflowId, dispatch, queryFulfilled),
    }),
  }),
});

export const { useListStepsQuery, useAddStepMutation, useAddStepFromTemplateMutation, useUpdateStepMutation, usePatchStepParamsMutation } = stepsApi;
export { editTags };
