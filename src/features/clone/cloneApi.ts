import type { WorkflowOut } from '../../../server/src/modules/workflows/workflows.schemas';
import { baseApi } from '../../services/baseApi';
import type { StepWithVersion } from '../steps/stepsApi';
import { editTags } from '../steps/stepsApi';

// Spec area "Clone": copy a workflow (mine, or a published one) or a step into my account.

export const cloneApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    cloneWorkflow: build.mutation<WorkflowOut, { id: string; name?: string }>({
      query: ({ id, name }) => ({ url: `/workflows/${id}/clone`, method: 'POST', params: name ? { name } : undefined }),
      invalidatesTags: [
        { type: 'Workflow', id: 'LIST' },
        { type: 'Workflow', id: 'PUBLIC' },
      ],
    }),
    cloneStep: build.mutation<StepWithVersion, { workflowId: string; stepId: string; name?: string }>({
      query: ({ stepId, name }) => ({ url: `/workflow-steps/${stepId}/clone`, method: 'POST', params: name ? { name } : undefined }),
      invalidatesTags: (_r, _e, { workflowId }) => editTags(workflowId),
    }),
  }),
});

export const { useCloneWorkflowMutation, useCloneStepMutation } = cloneApi;
