import type { DatasetColumn } from '../datasets';
import type { ParamValues } from '../params';

/**
 * The implementation half of a step type (ARCHITECTURE.md, decision 6): the description in
 * `step-types/` stays data; its runner, registered under the same id (`registry.ts`), says how it
 * runs. See README.md in this folder.
 */

/** A column as datasets describe them: name and DuckDB type (`UNKNOWN` when only DuckDB can tell, see README). */
export type Column = DatasetColumn;

/** The workflow's variables by name; a value an expression binds must be text, a number, a boolean or null. */
export type Vars = Readonly<Record<string, unknown>>;

export type SqlParam = string | number | boolean | null;

/** A SELECT and the values bound to its `$1`, `$2`… (never spliced into the text). */
export interface SqlQuery {
  sql: string;
  params: SqlParam[];
}

/** One input of a SQL step: the table expression reading its snapshot, and its columns (`_id` included). */
export interface SqlInput {
  table: string;
  columns: Column[];
}

export type RunnerKind = 'sql' | 'per-record' | 'source' | 'sink';

interface RunnerBase {
  /** The step type id, as in the catalogue. */
  stepType: string;
  /**
   * The columns the step produces (`_id` first), from its inputs' columns and its params, without
   * running anything: column pickers, `variable-fields` and the check before a run read this.
   * Throws StepParamsInvalid naming the param and the column when a param refers to a column the
   * input lacks or one of the wrong type. `params` are as stored (defaults are applied here).
   */
  outputColumns(inputs: Column[][], params: ParamValues, vars?: Vars): Column[];
}

/** Set-based: one SELECT over the input relations, run by DuckDB into the new snapshot. */
export interface SqlRunner extends RunnerBase {
  kind: 'sql';
  /**
   * The SELECT. It selects `_id` where records persist (see README for aggregate, join, union),
   * checks everything `outputColumns` checks, and binds every user value as a parameter.
   */
  toSql(inputs: SqlInput[], params: ParamValues, vars?: Vars): SqlQuery;
}

/** Per record in checkpointed batches (code, HTTP request, AI), sources and sinks: other issues' work. */
export interface OtherRunner extends RunnerBase {
  kind: 'per-record' | 'source' | 'sink';
}

export type StepRunner = SqlRunner | OtherRunner;
