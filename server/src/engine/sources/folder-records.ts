import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { DatasetMetadata } from '../datasets';
import { sqlString } from '../datasets/sql';
import { PLAIN_TYPE, sameName, widenTypes } from '../runners/columns';
import { StepRunFailed } from '../runners/execute';
import type { Column, FolderEntry, RunContext } from '../runners/types';
import { formatOf, fileRead } from './file-formats';
import { checkAborted, finished, quotedName, quoteName, readFailure, sampleLimit, writeSelect, type FileRead } from './source-dataset';

/** import_folder's `read: records`: the data files of a folder read one by one, then stacked into one table. */

/** The column `records` adds before the files' own columns: the file's path within the folder. */
export const FILE_NAME_COLUMN = 'file_name';

/** One data file read into a Parquet file of the scratch folder, with what it holds. */
interface FilePart {
  path: string;
  file: string;
  rows: number;
  columns: Column[];
}

/**
 * Copies a file read into a Parquet file (at most `limit` rows) and answers its row count and
 * columns: the union needs every file's types before it can write one SELECT over them all.
 * Stopping the run interrupts DuckDB.
 */
async function readIntoPart(ctx: RunContext, read: FileRead, target: string, limit: number, what: string): Promise<{ rows: number; columns: Column[] }> {
  checkAborted(ctx);
  try {
    return await ctx.datasets.pool.use(async (connection) => {
      const interrupt = () => connection.interrupt();
      ctx.signal.addEventListener('abort', interrupt, { once: true });
      try {
        const limited = Number.isFinite(limit) ? `SELECT * FROM (${read.select}) LIMIT ${limit}` : read.select;
        await connection.run(`COPY (${limited}) TO ${sqlString(target)} (FORMAT parquet)`);
        const count = await connection.runAndReadAll(`SELECT num_rows FROM parquet_file_metadata(${sqlString(target)})`);
        const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(target)})`);
        const columns = described.getRowObjects().map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
        return { rows: Number(count.getRows()[0]?.[0] ?? 0), columns };
      } finally {
        ctx.signal.removeEventListener('abort', interrupt);
      }
    });
  } catch (err) {
    checkAborted(ctx);
    throw readFailure(err, what, read.explain);
  }
}

/** Types the union casts to are widenTypes' choice or a file's own, kept only if plainly spelt (as union does). */
const castTo = (expr: string, type: string) => (PLAIN_TYPE.test(type) ? `CAST(${expr} AS ${type})` : expr);

/**
 * `read: records`: every data file (by its name's ending, as import_file's "auto") read as
 * import_file reads it (Excel: the first sheet), then stacked in path order into one table, as
 * union stacks by name: columns line up case-insensitively (first spelling and position win), a
 * column a file lacks is NULL there, types widen (widenTypes). `file_name`, the file's path within
 * the folder, comes first. Files of other kinds and files without records are skipped and counted
 * in the log; a file that cannot be read fails the step naming it. A preview's sample size bounds
 * the records of all files together: reading stops once it is reached.
 */
export async function readFolderRecords(ctx: RunContext, entries: FolderEntry[], pattern: string, recursive: boolean): Promise<DatasetMetadata> {
  const limit = sampleLimit(ctx);
  const parts: FilePart[] = [];
  // Every Parquet file made here, read or not: removed whatever happens.
  const scratchFiles: string[] = [];
  let rows = 0;
  let otherKinds = 0;
  let empty = 0;
  ctx.log(recursive ? 'server.runLog.readingFolderWithSubfolders' : 'server.runLog.readingFolder', { count: entries.length, pattern: quotedName(pattern) });
  try {
    for (const [index, entry] of entries.entries()) {
      if (rows >= limit) break;
      checkAborted(ctx);
      ctx.progress({ done: index, total: entries.length, phase: 'reading files' });
      const format = formatOf(entry.name);
      if (!format) {
        otherKinds++;
        continue;
      }
      // An empty file has no records: skipped, where import_file would say it is empty.
      if (entry.size === 0) {
        empty++;
        continue;
      }
      const what = quotedName(entry.path);
      const target = path.join(ctx.files.scratchDir, `folder-part-${randomUUID()}.parquet`);
      scratchFiles.push(target);
      const part = await ctx.files.withLocalFile(entry.id, async (file) => {
        const read = await fileRead(ctx, format, file.path, file.size, '', what, limit - rows);
        try {
          return await readIntoPart(ctx, read, target, limit - rows, what);
        } finally {
          await read.cleanup();
        }
      });
      if (part.rows === 0) {
        empty++;
        continue;
      }
      const clash = part.columns.find((c) => sameName(c.name, FILE_NAME_COLUMN));
      if (clash)
        throw new StepRunFailed(
          `${what} has its own column ${quotedName(clash.name)}, the name this step gives the column of file names: rename that column in the file`,
          null,
        );
      parts.push({ path: entry.path, file: target, rows: part.rows, columns: part.columns });
      rows += part.rows;
    }
    if (otherKinds) ctx.log('server.runLog.skippedOtherKinds', { count: otherKinds });
    if (empty) ctx.log('server.runLog.skippedEmpty', { count: empty });
    // For each output column, which column of each file feeds it (null: none, NULL there).
    const out: { column: Column; from: (Column | null)[] }[] = [];
    for (const [i, part] of parts.entries()) {
      for (const c of part.columns) {
        let slot = out.find((o) => sameName(o.column.name, c.name));
        if (!slot) out.push((slot = { column: { name: c.name, type: c.type }, from: parts.map(() => null) }));
        else slot.column = { name: slot.column.name, type: widenTypes(slot.column.type, c.type) };
        slot.from[i] = c;
      }
    }
    const [which, position] = [quoteName('__stepwise_file'), quoteName('__stepwise_pos')];
    const selects = parts.map((part, i) => {
      const list = out.map(({ column, from }) => {
        const source = from[i];
        if (!source) return `${castTo('NULL', column.type)} AS ${quoteName(column.name)}`;
        return `${source.type === column.type ? quoteName(source.name) : castTo(quoteName(source.name), column.type)} AS ${quoteName(column.name)}`;
      });
      return `SELECT ${[`${sqlString(part.path)} AS ${quoteName(FILE_NAME_COLUMN)}`, ...list, `${i} AS ${which}`, `row_number() OVER () AS ${position}`].join(', ')} FROM read_parquet(${sqlString(part.file)})`;
    });
    const what = `${parts.length} file(s) of the folder`;
    // No records anywhere: an empty table that still has the file name column.
    const select = selects.length
      ? `SELECT * EXCLUDE (${which}, ${position}) FROM (${selects.join(' UNION ALL ')}) ORDER BY ${which}, ${position}`
      : `SELECT CAST(NULL AS VARCHAR) AS ${quoteName(FILE_NAME_COLUMN)} WHERE false`;
    return finished(ctx, await writeSelect(ctx, what, () => select), { key: 'server.runLog.source.folderFiles', values: { count: parts.length } });
  } finally {
    await Promise.all(scratchFiles.map((file) => fs.promises.rm(file, { force: true })));
  }
}
