import type { StepInfoOut } from '../../../../server/src/modules/step-infos/step-infos.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { isEmptyValue, isReference } from '../../steps/paramValues';

// What publishing leaves out, as the server does it (workflows/public-view.ts, clone): the values
// of secrets, and the files and datasets of the author. The publish dialog lists them so the
// author knows what people who clone the workflow will have to set themselves.

/** Param types whose values never reach the gallery or a clone. */
const PRIVATE_PARAM_TYPES = new Set(['secret', 'file', 'dataset']);
const WHOLE_VARIABLE = /^\s*\{\{\s*var\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$/;

export type LeftEmpty = { kind: 'param'; step: string; param: string } | { kind: 'variable'; variable: string };

export function leftEmptyOnPublish(
  workflow: Pick<WorkflowOut, 'steps' | 'variables'>,
  catalogue: ReadonlyMap<string, Pick<StepInfoOut, 'params'>> | undefined,
): LeftEmpty[] {
  const found: LeftEmpty[] = [];
  const variables = new Set<string>();
  for (const step of workflow.steps) {
    for (const param of catalogue?.get(step.step_type)?.params ?? []) {
      if (!PRIVATE_PARAM_TYPES.has(param.type)) continue;
      const value = step.param_inputs[param.name];
      if (isEmptyValue(value)) continue;
      if (!isReference(value)) found.push({ kind: 'param', step: step.name, param: param.label });
      else if (param.type !== 'secret') {
        // A file or dataset read from a variable: a clone empties that variable.
        const name = typeof value === 'string' ? WHOLE_VARIABLE.exec(value)?.[1] : undefined;
        if (name && workflow.variables.some((v) => v.name === name && v.has_value)) variables.add(name);
      }
    }
  }
  for (const v of workflow.variables) if (v.type === 'secret' && v.has_value) variables.add(v.name);
  for (const name of [...variables].sort()) found.push({ kind: 'variable', variable: name });
  return found;
}
