import type { DatasetMetadata } from '../datasets';
import type { ParamValues } from '../params';
import { paramProblem } from '../runners/errors';
import { asStepFailure, StepRunFailed } from '../runners/execute';
import type { RunContext } from '../runners/types';
import type { LogValue } from '../run-log';

/**
 * What every source step does with its dataset: write `ctx.output` from one SELECT (a preview
 * reads the first rows: LIMIT), say DuckDB's errors about a file so a person can act on them, log
 * and report what it read, and read its id and choice params.
 */

export const limitClause = (ctx: RunContext) => (ctx.sampleSize == null ? '' : ` LIMIT ${Math.max(0, Math.floor(ctx.sampleSize))}`);

export function checkAborted(ctx: RunContext) {
  if (ctx.signal.aborted) throw new StepRunFailed('The run was stopped', ctx.signal.reason);
}

/** Turns DuckDB's long error about a file into a reason a person can act on, or null to keep its first line. */
export type Explain = (duckdbMessage: string) => string | null;

export function readFailure(err: unknown, what: string, explain?: Explain): unknown {
  const failure = asStepFailure(err);
  if (!(failure instanceof StepRunFailed)) return failure;
  const full = String((err as { message?: unknown }).message ?? '');
  return new StepRunFailed(explain?.(full) ?? `Could not read ${what}: ${failure.reason}`, err);
}

/** Writes the step's dataset from one SELECT; DuckDB's errors (a ragged CSV, bad JSON) become StepRunFailed naming `what`. */
export async function writeSelect(
  ctx: RunContext,
  what: string,
  select: (inputs: readonly string[]) => string,
  inputs?: DatasetMetadata[],
  explain?: Explain,
): Promise<DatasetMetadata> {
  checkAborted(ctx);
  try {
    return await ctx.datasets.write({
      ownerId: ctx.ownerId,
      name: ctx.output.name,
      datasetId: ctx.output.datasetId,
      stepRunId: ctx.stepRunId,
      inputs,
      source: { sql: (tables) => `${select(tables)}${limitClause(ctx)}` },
    });
  } catch (err) {
    throw readFailure(err, what, explain);
  }
}

/** `what`: where the records came from, for the log: a file's quoted name or a message ("the folder"). */
export function finished(ctx: RunContext, meta: DatasetMetadata, what: LogValue): DatasetMetadata {
  ctx.progress({ done: meta.rowCount, total: meta.rowCount, phase: 'done' });
  const read = { count: meta.rowCount, columns: meta.columns.length - 1, source: what };
  if (ctx.sampleSize == null) ctx.log('server.runLog.read', read);
  else ctx.log('server.runLog.readPreview', { ...read, sample: ctx.sampleSize });
  return meta;
}

export function idParam(params: ParamValues, name: string, key: string): string {
  const value = params[name];
  if (typeof value !== 'string' || !value.trim()) throw paramProblem([name], key);
  return value;
}

export function enumOf<T extends string>(params: ParamValues, name: string, options: readonly T[]): T {
  const value = params[name];
  if (typeof value !== 'string' || !options.includes(value as T)) throw paramProblem([name], 'server.params.enum', { values: options.join(', ') });
  return value as T;
}

export const quotedName = (name: string) => `“${name}”`;

/**
 * How one data file is read: a SELECT over it, how DuckDB's errors about it are said, and what to
 * remove once it has been read (an Excel sheet's JSON Lines). import_csv, import_file and
 * import_folder's `records` all read files through this, so a file reads the same in each.
 */
export interface FileRead {
  select: string;
  explain?: Explain;
  cleanup(): Promise<void>;
}

export const nothingToRemove = async () => {};

/** Writes the step's dataset from one file read, removing what the read left behind. */
export async function writeFileRead(ctx: RunContext, read: FileRead, what: string): Promise<DatasetMetadata> {
  try {
    return await writeSelect(ctx, what, () => read.select, undefined, read.explain);
  } finally {
    await read.cleanup();
  }
}

export const sampleLimit = (ctx: RunContext) => (ctx.sampleSize == null ? Infinity : Math.max(0, Math.floor(ctx.sampleSize)));

export const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;
