import { newMarker, type DatasetRecipe } from '../datasets';
import { sqlString } from '../datasets/sql';
import type { RunContext } from '../runners/types';
import { checkAborted, limitClause, readFailure, type Explain } from './source-dataset';

/**
 * Where a deferred import keeps its own copy of the file it reads, beside its (future) snapshot
 * `datasets/<owner>/<id>.parquet`: a CSV or TSV as `.csv`, any other format (JSON, JSON Lines,
 * Parquet) as `.source`. On local storage the copy is a hard link, on S3 a server-side copy: the
 * dataset keeps reading the file as it was when the step ran, whatever happens to the user's file.
 * Housekeeping removes it with its dataset (jobs/dataset-retention.ts).
 */
export const sourceCopyKey = (ownerId: string, datasetId: string, kind: 'csv' | 'other') =>
  `datasets/${ownerId}/${datasetId}.${kind === 'csv' ? 'csv' : 'source'}`;

/** How a deferred import reads its copy: the SELECT over the file at `path`, and how DuckDB's errors about it are said. */
export type ReadOfCopy = (path: string, size: number, what: string) => Promise<{ select: string; explain?: Explain }>;

/**
 * A deferred import's recipe (docs/architecture.md, "Deferred snapshots"): keeps a copy of the
 * user's file under `copyKey` and reads only its head now (DuckDB prepares the SELECT, which
 * sniffs the columns and their types); the records are read by whatever first needs them, a later
 * SQL step's query inlining this one or the snapshot written when the dataset is opened, so a
 * 1M-row file costs the time DuckDB takes to read it once, in that query. `read` says how the copy
 * is read (`name`: the user's file name, known once the copy is kept). Null when the copy's
 * columns would not survive a Parquet snapshot unchanged (recipeFor): the caller writes the
 * dataset instead, and the copy is deleted.
 */
export async function deferredFileRecipe(
  ctx: RunContext,
  fileId: string,
  copyKey: string,
  read: (file: { name: string; size: number }) => ReadOfCopy | null,
  describe: (name: string) => string,
): Promise<DatasetRecipe | null> {
  if (!ctx.files.keep) return null;
  checkAborted(ctx);
  const file = await ctx.files.keep(fileId, copyKey);
  const what = describe(file.name);
  let recipe: DatasetRecipe | null = null;
  try {
    recipe = await recipeOfCopy(ctx, copyKey, read(file), file.size, what);
  } finally {
    // Not deferred after all (or the file could not be read): the copy has no dataset to serve.
    if (!recipe) await ctx.datasets.storage.delete(copyKey);
  }
  if (!recipe) return null;
  ctx.progress({ done: 0, total: null, phase: 'deferred' });
  ctx.log('server.runLog.readHeader', { source: what, columns: recipe.columns.length - 1 });
  return recipe;
}

async function recipeOfCopy(ctx: RunContext, copyKey: string, reader: ReadOfCopy | null, size: number, what: string): Promise<DatasetRecipe | null> {
  if (!reader) return null;
  const lease = await ctx.datasets.files.open(copyKey);
  try {
    const { select, explain } = await reader(lease.path, size, what);
    const marker = newMarker();
    const relation = {
      sql: `(${select.split(sqlString(lease.path)).join(sqlString(marker))}${limitClause(ctx)})`,
      params: [],
      leaves: [{ marker, storageKey: copyKey, datasetId: ctx.output.datasetId }],
    };
    return await ctx.datasets
      .recipeFor({ datasetId: ctx.output.datasetId, inputs: [relation], select: ([table]) => `SELECT * FROM ${table}` })
      .catch((err: unknown) => {
        throw readFailure(err, what, explain);
      });
  } finally {
    lease.release();
  }
}
