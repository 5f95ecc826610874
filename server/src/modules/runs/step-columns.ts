import type { Db } from '../../db/database';
import type { Column, Vars } from '../../engine/runners';
import { columnsBeforeRun, type ColumnsStep } from '../../engine/run/columns-before-run';
import { getStepType } from '../../engine/step-types';
import { RunsRepository } from './runs.repository';

export type { ColumnsStep };

/**
 * The columns each step produces, as far as they can be known without running
 * (engine/run/columns-before-run.ts), with the workflow's last outputs standing in where a runner
 * cannot tell: what the column pickers and `variable-fields` show. `null`: unknown until it runs.
 */
export async function stepColumns(
  db: Db,
  userId: string,
  workflowId: string,
  steps: readonly ColumnsStep[],
  vars: Vars = {},
): Promise<Map<string, Column[] | null>> {
  const last = await new RunsRepository(db).latestOutputsOf(workflowId, userId);
  return columnsBeforeRun(steps, last, vars).columns;
}

/**
 * The input steps whose columns only a run can tell that a preview on a sample may run without
 * asking: each of them and every step before it is free and reaches nothing outside this server
 * (no model, no API, no webhook, no export). The editor previews them when the step is opened, so
 * its data panel and column pickers fill without a click.
 */
export function previewableInputs(step: ColumnsStep, steps: readonly ColumnsStep[], columns: ReadonlyMap<string, Column[] | null>): string[] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const quiet = (id: string, seen = new Set<string>()): boolean => {
    if (seen.has(id)) return true;
    seen.add(id);
    const s = byId.get(id);
    const type = s && getStepType(s.step_type);
    if (!s || !type) return false;
    const harmless = type.outsideCalls === 'none' && type.runner.kind !== 'sink' && type.description.cost.credits === 0;
    return harmless && s.inputs.every((input) => quiet(input, seen));
  };
  return step.inputs.filter((input, index) => step.inputs.indexOf(input) === index && !columns.get(input) && quiet(input));
}
