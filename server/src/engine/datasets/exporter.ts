import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { DuckDBPool } from './duckdb-pool';
import type { DatasetRef } from './metadata';
import type { ParquetFiles } from './parquet-files';
import { csvSelectList } from './csv-cells';
import { RECORD_ID } from './metadata';
import { fileColumns } from './reader';
import { checkRecordsQuery, typeName, type RecordsFilter, type RecordsSort } from './records-query';
import { parquetScan, quoteIdent, sqlString } from './sql';
import { runBound } from './writer';

/** DuckDB's virtual column of a Parquet row's place in its file. */
const FILE_ROW_NUMBER = 'file_row_number';

import type { ExportFormat } from './export-formats';

export { EXPORT_FORMATS, type ExportFormat } from './export-formats';

/** A whole dataset as one local file, to be streamed and then given back with `done()`. */
export interface ExportedFile {
  readonly path: string;
  readonly bytes: number;
  /** Releases the snapshot (Parquet) or deletes the temporary CSV; safe to call more than once. */
  done(): Promise<void>;
}

export interface ExportOptions {
  /** CSV: every value and column name as stored; otherwise cells a spreadsheet would run as formulas get a `'` (csv-cells.ts). */
  raw?: boolean;
  /** The records as a grid shows them; absent: every record and column, `_id` first, in file order. */
  view?: ExportView;
}

/** What a records grid shows: its filters and sort (as the records query takes them), its columns, and whether `_id` goes too. */
export interface ExportView {
  sort?: RecordsSort[];
  filters?: RecordsFilter[];
  /** The columns, in order; all when absent or empty. */
  columns?: string[];
  /** Write the record id as the first column. */
  includeId?: boolean;
}

/** Whether a view leaves the dataset as stored (then a Parquet download is the snapshot itself). */
const isWhole = (view: ExportView | undefined) => !view || (!view.sort?.length && !view.filters?.length && !view.columns?.length && view.includeId !== false);

/**
 * Whole-dataset downloads. Parquet is the snapshot itself (no copy: it is immutable and already
 * local, or cached from S3, and held while streamed). CSV is written by DuckDB into the writer's
 * temporary folder, the only place its sandbox lets it write besides the cache; the folder's
 * day-old files are swept by the writer, so a crash mid-download leaves nothing for long.
 */
export class DatasetExporter {
  constructor(
    private readonly pool: DuckDBPool,
    private readonly files: ParquetFiles,
    private readonly options: { tempDir: string },
  ) {}

  async export(ref: DatasetRef, format: ExportFormat, options: ExportOptions = {}): Promise<ExportedFile> {
    const source = await this.files.open(ref.storageKey);
    if (format === 'parquet' && isWhole(options.view)) {
      try {
        const { size } = await fs.promises.stat(source.path);
        return { path: source.path, bytes: size, done: once(async () => source.release()) };
      } catch (error) {
        source.release();
        throw error;
      }
    }
    const target = path.join(this.options.tempDir, `export-${randomUUID()}.${format}`);
    try {
      await fs.promises.mkdir(this.options.tempDir, { recursive: true });
      // The records as the view shows them (by default every column, `_id` first, in file order),
      // a CSV as a spreadsheet reads it, with formula cells neutralised unless asked for raw
      // values. The file's own columns (its footer), so what is written is what is stored; the
      // view's names and values are checked as a records query checks them (an unknown column is
      // InvalidRecordsQuery), values bound, never spliced in.
      await this.pool.use(async (connection) => {
        const scan = parquetScan(source.path);
        const shape = await fileColumns(connection, source.path);
        const view = options.view ?? {};
        const q = checkRecordsQuery(shape, { sort: view.sort, filters: view.filters, columns: view.columns });
        const chosen = (view.columns?.length ? [RECORD_ID, ...view.columns] : shape.map((c) => c.name))
          .filter((name, i, all) => all.indexOf(name) === i)
          .filter((name) => name !== RECORD_ID || view.includeId !== false)
          .map((name) => shape.find((c) => c.name === name)!)
          .map((c) => ({ name: c.name, type: typeName(c.type) }));
        const select = format === 'csv' ? csvSelectList(chosen, { raw: options.raw ?? false }) : chosen.map((c) => quoteIdent(c.name)).join(', ');
        const where = q.where ? ` WHERE ${q.where}` : '';
        // Ties keep file order, as the grid's pages do.
        const order = q.orderBy ? ` ORDER BY ${q.orderBy}, ${FILE_ROW_NUMBER}` : '';
        const to = format === 'csv' ? '(FORMAT csv, HEADER true)' : '(FORMAT parquet, COMPRESSION zstd)';
        await runBound(connection, `COPY (SELECT ${select} FROM ${scan}${where}${order}) TO ${sqlString(target)} ${to}`, q.whereParams);
      });
      const { size } = await fs.promises.stat(target);
      return { path: target, bytes: size, done: once(() => fs.promises.rm(target, { force: true })) };
    } catch (error) {
      await fs.promises.rm(target, { force: true });
      throw error;
    } finally {
      source.release();
    }
  }
}

function once(work: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= work());
}
