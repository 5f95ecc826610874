import type { Db } from '../../db/database';
import type { Column, Vars } from '../../engine/runners';
import { getStepType } from '../../engine/step-types';
import { RunsRepository } from './runs.repository';

export interface ColumnsStep {
  id: string;
  step_type: string;
  param_inputs: Record<string, unknown>;
  inputs: string[];
}

/**
 * The columns each step produces, as far as they can be known without running: a step's runner
 * derives them from its inputs' columns and its params (engine/runners: outputColumns); where that
 * cannot tell (a source, before reading its file) or the params do not fit, the step's last output
 * says. `null`: unknown until the step runs.
 */
export async function stepColumns(
  db: Db,
  userId: string,
  workflowId: string,
  steps: readonly ColumnsStep[],
  vars: Vars = {},
): Promise<Map<string, Column[] | null>> {
  const last = await new RunsRepository(db).latestOutputsOf(workflowId, userId);
  const byId = new Map(steps.map((s) => [s.id, s]));
  const known = new Map<string, Column[] | null>();
  const visiting = new Set<string>();
  const columnsOf = (id: string): Column[] | null => {
    if (known.has(id)) return known.get(id)!;
    const step = byId.get(id);
    if (!step || visiting.has(id)) return null; // a missing input or a loop: nothing to say
    visiting.add(id);
    const inputs = step.inputs.map(columnsOf);
    let columns: Column[] | null = null;
    const runner = getStepType(step.step_type)?.runner;
    if (runner && inputs.every((c) => c !== null)) {
      try {
        const derived = runner.outputColumns(inputs as Column[][], step.param_inputs, vars);
        // Where only DuckDB can tell a type (arithmetic), the last run told it.
        const ran = new Map((last.get(id)?.columns ?? []).map((c) => [c.name, c.type]));
        if (derived.length) columns = derived.map((c) => (c.type === 'UNKNOWN' && ran.has(c.name) ? { ...c, type: ran.get(c.name)! } : c));
      } catch {
        // Params that do not fit the input: the last run's columns are the best guess.
      }
    }
    columns ??= last.get(id)?.columns ?? null;
    visiting.delete(id);
    known.set(id, columns);
    return columns;
  };
  for (const s of steps) columnsOf(s.id);
  return known;
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
