import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { RECORD_ID, type DatasetMetadata, type JsonRecord, type RecipeParam } from '../datasets';
import { quoteIdent, sqlString } from '../datasets/sql';
import { runBound } from '../datasets/writer';
import { StepRunFailed } from '../runners/execute';
import type { Column, RunContext, SavedFile } from '../runners/types';
import { fileColumns } from './sink-params';

/**
 * How the sinks read their input and write files: DuckDB COPYs interrupted on cancel, files made
 * in `ctx.files.scratchDir` and handed to `ctx.files.save`, pages of records for writers that are
 * not DuckDB's (XLSX, webhook). Never the whole table in memory.
 */

/** Records read per page for the XLSX writer and the webhook (the reader's largest page). */
export const PAGE_RECORDS = 1000;

/** DuckDB runs `sql` (a COPY, `$n` bound to `params`), interrupted when the run is cancelled; answers the rows written. */
export async function runCopy(ctx: RunContext, sql: string, params: readonly RecipeParam[] = []): Promise<number> {
  ctx.signal.throwIfAborted();
  const rows = await ctx.datasets.pool.use(async (connection) => {
    const interrupt = () => connection.interrupt();
    ctx.signal.addEventListener('abort', interrupt, { once: true });
    try {
      const result = await runBound(connection, sql, params);
      return Number(result.rowsChanged);
    } catch (err) {
      ctx.signal.throwIfAborted();
      const message = String((err as { message?: unknown })?.message ?? err).split('\n')[0];
      throw new StepRunFailed(message.slice(0, 500), err);
    } finally {
      ctx.signal.removeEventListener('abort', interrupt);
    }
  });
  ctx.signal.throwIfAborted();
  return rows;
}

/** `write` makes a file at a scratch path; it is then saved in the owner's files (moved, so nothing is left behind). */
export async function writeAndSave(
  ctx: RunContext,
  name: string,
  folderId: string | null,
  extension: string,
  write: (localPath: string) => Promise<void>,
): Promise<SavedFile> {
  const localPath = path.join(ctx.files.scratchDir, `${ctx.stepRunId}-${randomUUID()}.${extension}`);
  try {
    await write(localPath);
    ctx.signal.throwIfAborted();
    return await ctx.files.save({ name, folderId, localPath });
  } finally {
    await fs.promises.rm(localPath, { force: true });
  }
}

/**
 * A streaming export's whole run: DuckDB COPYs the input (its chosen columns) straight into one
 * file, saved in the owner's files, with progress and a log line. `copy` writes the COPY statement
 * from the columns, the input's table expression and the scratch path.
 */
export async function copyToSavedFile(
  ctx: RunContext,
  input: DatasetMetadata,
  file: { name: string; folderId: string | null; extension: string; includeRecordId: boolean },
  copy: (columns: Column[], scan: string, target: string) => string,
): Promise<{ files: SavedFile[]; summary: { records: number; file: string; bytes: number } }> {
  ctx.progress({ done: 0, total: knownCount(input), phase: 'writing' });
  const columns = fileColumns(input.columns, file.includeRecordId);
  let records = 0;
  const saved = await writeAndSave(ctx, file.name, file.folderId, file.extension, async (target) => {
    records = await withInputFile(
      ctx,
      input,
      (scan, bound) => runCopy(ctx, copy(columns, scan, sqlString(target)), bound),
      !columns.some((c) => c.name === RECORD_ID),
    );
  });
  ctx.progress({ done: records, total: records });
  ctx.log('server.runLog.savedRecords', { name: saved.name, count: records, size: saved.size });
  return { files: [saved], summary: { records, file: saved.name, bytes: saved.size } };
}

/**
 * The input as a table expression for DuckDB (its files held until `work` ends) and the values its
 * `$n` take: a stored snapshot's Parquet file, or a deferred dataset's recipe, computed in the same
 * streaming query as the export (datasets/recipe.ts).
 */
export async function withInputFile<T>(
  ctx: RunContext,
  input: DatasetMetadata,
  work: (scan: string, params: RecipeParam[]) => Promise<T>,
  withoutIds = false,
): Promise<T> {
  const relation = ctx.datasets.relationOf(input);
  // A file without `_id` reads the deferred rows without computing their ids (Relation.bare).
  if (withoutIds && relation.bare) return ctx.datasets.withRelation({ sql: relation.bare.sql, params: relation.bare.params, leaves: relation.leaves }, work);
  return ctx.datasets.withRelation(relation, work);
}

/**
 * The input's records page by page (as the records API answers them: see datasets/json-values.ts),
 * in order, reporting progress; stops at a cancelled run between pages.
 */
export async function* pagesOf(ctx: RunContext, input: DatasetMetadata, pageSize: number): AsyncGenerator<JsonRecord[]> {
  const total = input.rowCount;
  let done = 0;
  for (let page = 1; done < total; page++) {
    ctx.signal.throwIfAborted();
    const { items } = await ctx.datasets.records(input, { page, pageSize });
    if (!items.length) break;
    yield items;
    done += items.length;
    ctx.progress({ done, total });
  }
}

/** The input's record count, or null while it is deferred (not known before the export counts it). */
export const knownCount = (input: DatasetMetadata): number | null => (input.recipe ? null : input.rowCount);

export const selectList = (columns: readonly Column[]) => columns.map((c) => quoteIdent(c.name)).join(', ');
