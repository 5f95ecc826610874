import type { Static } from '@sinclair/typebox';
import type { CoordinatorOut, EvaluationOut, PreviewOut, StepParamOut } from '../../../server/src/modules/agents/agents.schemas';
import { baseApi } from '../../services/baseApi';
import { workflowEditTags } from '../conversations/workflowEditTags';

// Spec area "Agents" (docs/agents.md): one turn of an agent answered whole. The chat screens stream
// their turns instead (chatStream.ts); these are for callers that want the result in one answer
// (the step inspector's "fill params" and "check params"). Without a model every call answers 409
// with a warning modal, which the notices show like any other error; a provider failure 502 and
// too many turns 429, both with `detail`.

/** The step run on the first records (the engine's sample mode): its state, error, columns and records. */
export type RecordsPreview = Static<typeof PreviewOut>;

export interface CoordinatorMessageIn {
  workflowId: string;
  message: string;
  conversationId?: string;
  dryRun?: boolean;
}
export type CoordinatorMessageOut = Static<typeof CoordinatorOut>;

export interface StepParamMessageIn {
  workflowId: string;
  stepId: string;
  message: string;
  conversationId?: string;
  apply?: boolean;
}
/** `preview` is null when the params were not applied (apply=false). */
export type StepParamMessageOut = Static<typeof StepParamOut>;

export interface StepParamEvaluationIn {
  workflowId: string;
  stepId: string;
  message?: string;
  conversationId?: string;
  sampleSize?: number;
}
export type StepParamEvaluationOut = Static<typeof EvaluationOut>;
export type ParamProblem = StepParamEvaluationOut['problems'][number];

const withConversation = (conversationId: string | undefined) => (conversationId ? { conversation_id: conversationId } : {});
const conversationTags = (conversationId: string | undefined) => [
  { type: 'Conversation' as const, id: 'LIST' },
  ...(conversationId ? [{ type: 'Conversation' as const, id: conversationId }] : []),
];

export const agentsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    sendCoordinatorMessage: build.mutation<CoordinatorMessageOut, CoordinatorMessageIn>({
      query: ({ workflowId, message, conversationId, dryRun = false }) => ({
        url: `/agents/coordinator/${encodeURIComponent(workflowId)}/message`,
        method: 'POST',
        params: { dry_run: dryRun },
        body: { message, ...withConversation(conversationId) },
      }),
      // An applied turn changed the workflow: the editor refetches it like after any other edit.
      invalidatesTags: (result, _e, { workflowId }) => [
        ...conversationTags(result?.conversation_id),
        ...(result?.commit?.applied ? workflowEditTags(workflowId) : []),
      ],
    }),
    sendStepParamMessage: build.mutation<StepParamMessageOut, StepParamMessageIn>({
      query: ({ workflowId, stepId, message, conversationId, apply = true }) => ({
        url: `/agents/workflow-step-param/${encodeURIComponent(workflowId)}/${encodeURIComponent(stepId)}/message`,
        method: 'POST',
        body: { message, apply, ...withConversation(conversationId) },
      }),
      invalidatesTags: (result, _e, { workflowId }) => [...conversationTags(result?.conversation_id), ...(result?.applied ? workflowEditTags(workflowId) : [])],
    }),
    sendStepParamEvaluationMessage: build.mutation<StepParamEvaluationOut, StepParamEvaluationIn>({
      query: ({ workflowId, stepId, message, conversationId, sampleSize }) => ({
        url: `/agents/workflow-step-param-evaluation/${encodeURIComponent(workflowId)}/${encodeURIComponent(stepId)}/message`,
        method: 'POST',
        body: { ...(message ? { message } : {}), ...withConversation(conversationId), ...(sampleSize ? { sample_size: sampleSize } : {}) },
      }),
      invalidatesTags: (result) => conversationTags(result?.conversation_id),
    }),
  }),
});

export const { useSendCoordinatorMessageMutation, useSendStepParamMessageMutation, useSendStepParamEvaluationMessageMutation } = agentsApi;
