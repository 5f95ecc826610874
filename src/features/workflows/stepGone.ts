import { workflowsApi } from './workflowsApi';

type CacheState = Parameters<ReturnType<typeof workflowsApi.endpoints.getWorkflow.select>>[0];

/**
 * Whether the cached workflow is known and no longer holds the step (deleted, undone, restored or
 * redone away, its settings still open for a moment). Queries about one step ask this first: the
 * server would only answer 404 "Step not found." for it.
 */
export function stepGoneFromCache(state: unknown, workflowId: string, stepId: string | undefined): boolean {
  if (!stepId) return false;
  const workflow = workflowsApi.endpoints.getWorkflow.select(workflowId)(state as CacheState).data;
  return !!workflow && !workflow.steps.some((s) => s.id === stepId);
}
