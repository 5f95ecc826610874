import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../server/src/modules/workflows/workflows.schemas';
import type { AppDispatch } from '../../app/store';
import { noteVersion } from './versioning';
import { workflowsApi } from './workflowsApi';

// After a write succeeds the cached workflow takes its new version (and the changed step) at once,
// so the next write sends the right If-Match without waiting for the refetch, and the canvas does
// not jump back while the refetch is on its way. Every edit can be undone and clears redo.

type Recipe = (draft: WorkflowOut) => void;

export function patchWorkflow(dispatch: AppDispatch, workflowId: string, recipe: Recipe) {
  return dispatch(workflowsApi.util.updateQueryData('getWorkflow', workflowId, recipe));
}

export function afterEdit(workflowId: string, version: number, recipe?: Recipe) {
  noteVersion(workflowId, version);
  return (dispatch: AppDispatch) =>
    patchWorkflow(dispatch, workflowId, (draft) => {
      if (version > draft.version) draft.version = version;
      draft.can_undo = true;
      draft.can_redo = false;
      recipe?.(draft);
    });
}

export function upsertStep(draft: WorkflowOut, step: StepOut) {
  const { id, workflow_id, step_type, name, param_inputs, inputs, position } = step;
  const clean = { id, workflow_id, step_type, name, param_inputs, inputs, position };
  const index = draft.steps.findIndex((s) => s.id === id);
  if (index >= 0) draft.steps[index] = clean;
  else draft.steps.push(clean);
  draft.step_count = draft.steps.length;
}
