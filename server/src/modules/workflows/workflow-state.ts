import type { Problem } from '../../lib/errors';
import { cloneJson, sameJson as sameJsonValue } from '../../lib/json-values';

/**
 * A workflow's whole editable state as one value. Every edit is a function from one state to the
 * next; the history can rebuild the state after each commit (workflow-delta.ts), so undo, redo and
 * restore are "make the workflow this state again". Pure: no database, no HTTP.
 */
export interface StepState {
  id: string;
  step_type: string;
  name: string;
  param_inputs: Record<string, unknown>;
  /** Ids of the steps this one reads from, in order. */
  inputs: string[];
  position: { x: number; y: number };
}

export type VariableType = 'string' | 'number' | 'boolean' | 'json' | 'secret';

export interface VariableState {
  id: string;
  name: string;
  type: VariableType;
  description: string;
  /** JSON text of the value; for a secret, the sealed text; null when unset. */
  value: string | null;
}

export interface WorkflowSnapshot {
  name: string;
  description: string;
  tags: string[];
  steps: StepState[];
  variables: VariableState[];
}

export interface Change {
  entity: 'workflow' | 'step' | 'variable';
  id: string;
  op: 'create' | 'update' | 'delete';
  /** For updates: which fields differ. */
  fields?: string[];
}

/**
 * Equal as JSON values: key order does not count (a state rebuilt from the history and the same
 * state read from rows may list an object's keys differently), and a key holding undefined is absent.
 * Walks without recursion (lib/json-values), so no stored value can overflow the stack.
 */
export const sameJson = sameJsonValue;

function changedFields<T extends object>(before: T, after: T): string[] {
  return (Object.keys(after) as (keyof T & string)[]).filter((key) => !sameJson(before[key], after[key]));
}

function diffById<T extends { id: string }>(entity: Change['entity'], before: T[], after: T[]): Change[] {
  const old = new Map(before.map((item) => [item.id, item]));
  const now = new Map(after.map((item) => [item.id, item]));
  const changes: Change[] = [];
  for (const item of after) {
    const previous = old.get(item.id);
    if (!previous) changes.push({ entity, id: item.id, op: 'create' });
    else {
      const fields = changedFields(previous, item);
      if (fields.length) changes.push({ entity, id: item.id, op: 'update', fields });
    }
  }
  for (const item of before) if (!now.has(item.id)) changes.push({ entity, id: item.id, op: 'delete' });
  return changes;
}

/** What differs between two states: what a commit records as "what changed". */
export function diffSnapshots(before: WorkflowSnapshot, after: WorkflowSnapshot, workflowId: string): Change[] {
  const fields = (['name', 'description', 'tags'] as const).filter((key) => !sameJson(before[key], after[key]));
  return [
    ...(fields.length ? [{ entity: 'workflow' as const, id: workflowId, op: 'update' as const, fields: [...fields] }] : []),
    ...diffById('step', before.steps, after.steps),
    ...diffById('variable', before.variables, after.variables),
  ];
}

export interface InputLimits {
  min: number;
  max: number | null;
}

/**
 * The graph rules: every input names a step of this workflow, no step reads from itself or twice
 * from the same step, no step takes more inputs than its type allows, and there is no cycle.
 * (Too few inputs is a normal state while building, e.g. a join with one side connected; the run
 * checks it.) `limitsOf` answers null for an unknown step type.
 */
export function graphProblems(steps: StepState[], limitsOf: (stepType: string) => InputLimits | null): Problem[] {
  const problems: Problem[] = [];
  const byId = new Map(steps.map((s) => [s.id, s]));
  // `loc` names the request's field (a step's `inputs`, its `step_type`), never the position of a
  // step inside the stored state, which the caller never sent.
  const loc = ['body', 'inputs'];
  for (const step of steps) {
    const limits = limitsOf(step.step_type);
    if (!limits) problems.push({ key: 'server.steps.unknownType', values: { type: step.step_type }, loc: ['body', 'step_type'] });
    for (const input of step.inputs) {
      if (input === step.id) problems.push({ key: 'server.steps.selfInput', values: { step: step.name }, loc });
      else if (!byId.has(input)) problems.push({ key: 'server.steps.danglingInput', values: { step: step.name, input }, loc });
    }
    if (new Set(step.inputs).size !== step.inputs.length) problems.push({ key: 'server.steps.duplicateInput', values: { step: step.name }, loc });
    if (limits && limits.max !== null && step.inputs.length > limits.max) {
      problems.push({ key: 'server.steps.tooManyInputs', values: { step: step.name, max: limits.max }, loc });
    }
  }
  if (problems.length) return problems;
  const cycle = findCycle(steps);
  if (cycle) {
    const names = cycle.map((id) => byId.get(id)!.name).join(' → ');
    problems.push({ key: 'server.steps.cycle', values: { path: names }, loc: ['body', 'inputs'] });
  }
  return problems;
}

/** A cycle as a list of step ids (first repeated at the end), or null. Iterative DFS: a 10,000-step graph must not blow the stack. */
export function findCycle(steps: StepState[]): string[] | null {
  const inputsOf = new Map(steps.map((s) => [s.id, s.inputs]));
  const state = new Map<string, 'visiting' | 'done'>();
  for (const start of steps) {
    if (state.has(start.id)) continue;
    const stack: { id: string; next: number }[] = [{ id: start.id, next: 0 }];
    state.set(start.id, 'visiting');
    while (stack.length) {
      const top = stack[stack.length - 1];
      const inputs = inputsOf.get(top.id) ?? [];
      if (top.next < inputs.length) {
        const child = inputs[top.next++];
        const seen = state.get(child);
        if (seen === 'visiting') {
          const path = stack.map((f) => f.id);
          return [...path.slice(path.indexOf(child)), child];
        }
        if (!seen && inputsOf.has(child)) {
          state.set(child, 'visiting');
          stack.push({ id: child, next: 0 });
        }
      } else {
        state.set(top.id, 'done');
        stack.pop();
      }
    }
  }
  return null;
}

/** A copy with new ids for every step and variable, inputs remapped: for clones. */
export function withNewIds(snapshot: WorkflowSnapshot, newId: () => string): WorkflowSnapshot {
  const stepIds = new Map(snapshot.steps.map((s) => [s.id, newId()]));
  return {
    ...snapshot,
    tags: [...snapshot.tags],
    steps: snapshot.steps.map((s) => ({
      ...s,
      id: stepIds.get(s.id)!,
      inputs: s.inputs.map((i) => stepIds.get(i) ?? i),
      param_inputs: cloneJson(s.param_inputs),
      position: { ...s.position },
    })),
    variables: snapshot.variables.map((v) => ({ ...v, id: newId() })),
  };
}
