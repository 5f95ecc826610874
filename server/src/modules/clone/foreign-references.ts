import { isReference } from '../../engine/params';
import { getStepDescription, type ParamSpec } from '../../engine/step-types';
import type { WorkflowSnapshot } from '../workflows/workflow-state';
import { cloneJson } from '../../lib/json-values';

/**
 * A workflow copied into another account must not keep the ids of its author's files, folders or
 * datasets: once it runs, they would be read on the new owner's behalf. Pure: which ids the new
 * owner has is looked up by the caller (`CloneRepository`).
 */

/** Param types whose value names something a user owns. */
const OWNED_KINDS = ['file', 'folder', 'dataset'] as const;
type OwnedKind = (typeof OWNED_KINDS)[number];
const namesOwnedThing = (spec: ParamSpec): spec is ParamSpec & { type: OwnedKind } => (OWNED_KINDS as readonly string[]).includes(spec.type);

/** Of the candidate ids, those the new owner has, by kind: a file id in a folder param is foreign. */
export type OwnedIds = Record<OwnedKind, ReadonlySet<string>>;

export interface Dropped {
  /** Steps that lost params: their name and type, and the names of the params removed. */
  steps: { name: string; stepType: string; params: string[] }[];
  /** Variables whose value was cleared because a file, folder or dataset param read its id from them. */
  variables: string[];
}

const WHOLE_VARIABLE = /^\s*\{\{\s*var\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$/;

/** The variable's value when it is a plain text (JSON text of a string), else null. */
function textOf(value: string | null): string | null {
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/** Every id the snapshot's file, folder and dataset params name, directly or through a variable. */
export function candidateIds(snapshot: WorkflowSnapshot): Record<OwnedKind, string[]> {
  const found: Record<OwnedKind, Set<string>> = { file: new Set(), folder: new Set(), dataset: new Set() };
  const variables = new Map(snapshot.variables.map((v) => [v.name, v]));
  for (const step of snapshot.steps) {
    for (const spec of getStepDescription(step.step_type)?.params.filter(namesOwnedThing) ?? []) {
      const value = step.param_inputs[spec.name];
      if (typeof value !== 'string') continue;
      const variable = WHOLE_VARIABLE.exec(value);
      const id = variable ? textOf(variables.get(variable[1])?.value ?? null) : isReference(value) ? null : value;
      if (id) found[spec.type].add(id);
    }
  }
  return { file: [...found.file], folder: [...found.folder], dataset: [...found.dataset] };
}

/**
 * The snapshot without what names things the new owner does not own: such a param is removed (the
 * step then needs settings, which the editor shows), and a variable it read the id from is emptied.
 * `{{field.x}}` values come from the data at run time and stay; the run must check those itself.
 */
export function withoutForeignReferences(snapshot: WorkflowSnapshot, owned: OwnedIds): { snapshot: WorkflowSnapshot; dropped: Dropped } {
  const copy = cloneJson(snapshot);
  const variables = new Map(copy.variables.map((v) => [v.name, v]));
  const dropped: Dropped = { steps: [], variables: [] };
  for (const step of copy.steps) {
    const removed: string[] = [];
    for (const spec of getStepDescription(step.step_type)?.params.filter(namesOwnedThing) ?? []) {
      if (!Object.prototype.hasOwnProperty.call(step.param_inputs, spec.name)) continue;
      const value = step.param_inputs[spec.name];
      const variableName = typeof value === 'string' ? WHOLE_VARIABLE.exec(value)?.[1] : undefined;
      if (variableName !== undefined) {
        const variable = variables.get(variableName);
        const id = textOf(variable?.value ?? null);
        if (variable && id !== null && !owned[spec.type].has(id)) {
          variable.value = null;
          if (!dropped.variables.includes(variable.name)) dropped.variables.push(variable.name);
        }
        continue;
      }
      if (typeof value === 'string' && isReference(value)) continue;
      if (value === null || (typeof value === 'string' && owned[spec.type].has(value))) continue;
      delete step.param_inputs[spec.name];
      removed.push(spec.name);
    }
    if (removed.length) dropped.steps.push({ name: step.name, stepType: step.step_type, params: removed });
  }
  return { snapshot: copy, dropped };
}
