import { isReference } from '../../engine/params';
import type { ParamSpec, ParamType, StepCategory } from '../../engine/step-types';
import type { WorkflowSnapshot } from './workflow-state';
import type { PublicWorkflowDetailOut } from './workflows.schemas';

// The gallery's preview of a published workflow: what anyone, signed in or not, may see of it.
// Pure: the caller hands in the published copy and how each step type reads in the caller's language.

/** Param types whose values are never public: a secret, or the id of something the author owns. */
const PRIVATE_PARAM_TYPES: readonly ParamType[] = ['secret', 'file', 'dataset'];

const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Whether a param's value must not be shown. A whole `{{var.x}}`/`{{field.y}}` reference names a
 * variable or a column, not the secret or the file itself, so it stays. A param the step type does
 * not describe (a type since removed) is withheld: what it holds cannot be known.
 */
export function isWithheld(spec: Pick<ParamSpec, 'type'> | undefined, value: unknown): boolean {
  if (isEmpty(value) || isReference(value)) return false;
  return !spec || PRIVATE_PARAM_TYPES.includes(spec.type);
}

/** How a step type reads in the caller's language (admins' overrides applied); undefined for an unknown type. */
export interface StepTypeLook {
  name: string;
  category: StepCategory;
  params: { name: string; label: string; type: ParamType }[];
}

export interface PublishedMeta {
  id: string;
  author_name: string;
  clone_count: number;
  published_at: string;
}

export function toPublicDetail(
  meta: PublishedMeta,
  published: WorkflowSnapshot,
  lookOf: (stepType: string) => StepTypeLook | undefined,
): PublicWorkflowDetailOut {
  // The author's step ids stay private: the preview names steps by their place in the list.
  const publicId = new Map(published.steps.map((s, i) => [s.id, String(i + 1)]));
  return {
    ...meta,
    name: published.name,
    description: published.description,
    tags: published.tags,
    step_count: published.steps.length,
    steps: published.steps.map((step) => {
      const look = lookOf(step.step_type);
      const known = look?.params ?? [];
      const names = [
        ...known.map((p) => p.name).filter((name) => name in step.param_inputs),
        ...Object.keys(step.param_inputs).filter((name) => !known.some((p) => p.name === name)),
      ];
      return {
        id: publicId.get(step.id)!,
        name: step.name,
        step_type: step.step_type,
        type_name: look?.name ?? step.step_type,
        category: look?.category ?? null,
        position: { x: step.position.x, y: step.position.y },
        inputs: step.inputs.flatMap((input) => (publicId.has(input) ? [publicId.get(input)!] : [])),
        params: names.map((name) => {
          const spec = known.find((p) => p.name === name);
          const value = step.param_inputs[name];
          const withheld = isWithheld(spec, value);
          return { name, label: spec?.label ?? name, type: spec?.type ?? null, value: withheld ? null : (value ?? null), withheld };
        }),
      };
    }),
    variables: published.variables.map((v) => ({ name: v.name, type: v.type, description: v.description })),
  };
}
