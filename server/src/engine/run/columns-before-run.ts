import { StepParamsInvalid, type Column, type Vars } from '../runners';
import { getStepType } from '../step-types';

export interface ColumnsStep {
  id: string;
  step_type: string;
  param_inputs: Record<string, unknown>;
  inputs: string[];
}

export interface ColumnsBeforeRun {
  /** What each step produces, as far as it can be known without running; null: only a run tells. */
  columns: Map<string, Column[] | null>;
  /** Steps whose params do not fit their inputs' known columns (a column the input lacks), with why. */
  problems: Map<string, StepParamsInvalid>;
}

/**
 * The columns each step produces, worked out without running: a step's runner derives them from
 * its inputs' columns and its params (`outputColumns`); where it cannot (a source, before reading
 * its file) the step's last output (`last`) says. A step whose inputs' columns are all known and
 * whose params name a column they lack is a problem, with the runner's "did you mean".
 * `lastOnlyWhereUnknown`: the last output stands in only where the runner cannot tell; otherwise
 * (the editor's pickers) it is also the best guess for a step whose params do not fit.
 */
export function columnsBeforeRun(
  steps: readonly ColumnsStep[],
  last: ReadonlyMap<string, { columns: Column[] }>,
  vars: Vars = {},
  lastOnlyWhereUnknown = false,
): ColumnsBeforeRun {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const columns = new Map<string, Column[] | null>();
  const problems = new Map<string, StepParamsInvalid>();
  const visiting = new Set<string>();
  const columnsOf = (id: string): Column[] | null => {
    if (columns.has(id)) return columns.get(id)!;
    const step = byId.get(id);
    if (!step || visiting.has(id)) return null; // a missing input or a loop: nothing to say
    visiting.add(id);
    const inputs = step.inputs.map(columnsOf);
    let found: Column[] | null = null;
    let misfit = false;
    const runner = getStepType(step.step_type)?.runner;
    if (runner && inputs.every((c) => c !== null)) {
      try {
        const derived = runner.outputColumns(inputs as Column[][], step.param_inputs, vars);
        // Where only DuckDB can tell a type (arithmetic), the last run told it.
        const ran = new Map((last.get(id)?.columns ?? []).map((c) => [c.name, c.type]));
        if (derived.length) found = derived.map((c) => (c.type === 'UNKNOWN' && ran.has(c.name) ? { ...c, type: ran.get(c.name)! } : c));
      } catch (err) {
        misfit = true;
        if (err instanceof StepParamsInvalid && step.inputs.length > 0) problems.set(id, err);
      }
    }
    if (!(misfit && lastOnlyWhereUnknown)) found ??= last.get(id)?.columns ?? null;
    visiting.delete(id);
    columns.set(id, found);
    return found;
  };
  for (const s of steps) columnsOf(s.id);
  return { columns, problems };
}
