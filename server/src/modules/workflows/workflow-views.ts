import { getStepDescription } from '../../engine/step-types';
import { isReference } from '../../engine/params';
import type { StepOut } from '../steps/steps.schemas';
import type { VariableOut } from '../variables/variables.schemas';
import type { StepState, VariableState, WorkflowSnapshot } from './workflow-state';
import type { UndoAvailability } from './commits.repository';
import type { WorkflowRow, WorkflowSummaryRow } from './workflows.repository';
import type { WorkflowOut, WorkflowSummaryOut } from './workflows.schemas';

// Rows and states → the JSON the API answers. Secrets never leave as plain text.

export const toStepOut = (workflowId: string, s: StepState): StepOut => ({
  id: s.id,
  workflow_id: workflowId,
  step_type: s.step_type,
  name: s.name,
  param_inputs: s.param_inputs,
  inputs: s.inputs,
  position: s.position,
});

export const toVariableOut = (workflowId: string, v: VariableState): VariableOut => ({
  id: v.id,
  workflow_id: workflowId,
  name: v.name,
  type: v.type,
  description: v.description,
  value: v.type === 'secret' || v.value === null ? null : JSON.parse(v.value),
  has_value: v.value !== null,
});

export const toSummaryOut = (w: WorkflowSummaryRow, stepCount: number): WorkflowSummaryOut => ({
  id: w.id,
  name: w.name,
  description: w.description,
  tags: JSON.parse(w.tags),
  visibility: w.visibility,
  version: w.version,
  step_count: stepCount,
  clone_count: w.clone_count,
  cloned_from_id: w.cloned_from_id,
  published_at: w.published_at,
  created_at: w.created_at,
  updated_at: w.updated_at,
});

export const toWorkflowOut = (w: WorkflowRow & UndoAvailability, snapshot: WorkflowSnapshot): WorkflowOut => ({
  ...toSummaryOut(w, snapshot.steps.length),
  published_version: w.published_version,
  owner_id: w.owner_id,
  steps: snapshot.steps.map((s) => toStepOut(w.id, s)),
  variables: snapshot.variables.map((v) => toVariableOut(w.id, v)),
  can_undo: w.can_undo,
  can_redo: w.can_redo,
});

/** A step without the values of its secret params (a `{{var.x}}` reference names no secret and stays). */
function withoutSecretParams(step: StepState): StepState {
  const secret = (getStepDescription(step.step_type)?.params ?? []).filter(
    (p) => p.type === 'secret' && p.name in step.param_inputs && !isReference(step.param_inputs[p.name]),
  );
  if (!secret.length) return step;
  const param_inputs = { ...step.param_inputs };
  for (const p of secret) delete param_inputs[p.name];
  return { ...step, param_inputs };
}

/** What the gallery keeps of a workflow: everything but secret values, of variables and of params alike. */
export const withoutSecrets = (snapshot: WorkflowSnapshot): WorkflowSnapshot => ({
  ...snapshot,
  steps: snapshot.steps.map(withoutSecretParams),
  variables: snapshot.variables.map((v) => (v.type === 'secret' ? { ...v, value: null } : v)),
});
