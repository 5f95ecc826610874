import { defaultParams, validateParams } from '../../engine/params';
import { getStepType } from '../../engine/step-types';
import type { StepTypeDescription } from '../../engine/step-types/step-type';
import { ValidationFailed, type Problem } from '../../lib/http-error';
import type { StepState, WorkflowSnapshot } from '../workflows/workflow-state';

// Rules for steps that need the catalogue: which type, which params, which name.

export function stepTypeOrFail(id: string, loc: (string | number)[] = ['body', 'step_type']): StepTypeDescription {
  const type = getStepType(id);
  if (!type) throw new ValidationFailed([{ key: 'server.steps.unknownType', values: { type: id }, loc }]);
  return type;
}

/** Checks param inputs against the step type's schema; problems point at the param. */
export function checkParams(type: StepTypeDescription, values: Record<string, unknown>, mode: 'replace' | 'merge', current?: Record<string, unknown>): void {
  const problems: Problem[] = validateParams(type, values, mode, current).map((issue) => ({
    key: issue.key,
    values: issue.values,
    loc: ['body', 'param_inputs', issue.param],
  }));
  if (problems.length) throw new ValidationFailed(problems);
}

/** "Filter", then "Filter 2", "Filter 3"… so steps stay tellable apart on the canvas. */
export function uniqueStepName(snapshot: WorkflowSnapshot, base: string): string {
  const taken = new Set(snapshot.steps.map((s) => s.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

/** Below the step it follows, or to the right of everything else. */
export function nextPosition(snapshot: WorkflowSnapshot, after?: StepState): { x: number; y: number } {
  if (after) return { x: after.position.x, y: after.position.y + 120 };
  if (!snapshot.steps.length) return { x: 0, y: 0 };
  return { x: Math.max(...snapshot.steps.map((s) => s.position.x)) + 280, y: 0 };
}

export const defaultsOf = (type: StepTypeDescription) => defaultParams(type);
