import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { DuckDBPool } from './duckdb-pool';
import type { DatasetRef } from './metadata';
import type { ParquetFiles } from './parquet-files';
import { csvSelectList } from './csv-cells';
import { parquetScan, sqlString } from './sql';

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
}

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
    if (format === 'parquet') {
      try {
        const { size } = await fs.promises.stat(source.path);
        return { path: source.path, bytes: size, done: once(async () => source.release()) };
      } catch (error) {
        source.release();
        throw error;
      }
    }
    const target = path.join(this.options.tempDir, `export-${randomUUID()}.csv`);
    try {
      await fs.promises.mkdir(this.options.tempDir, { recursive: true });
      // Every column, `_id` first, in file order: what the records grid shows, as a spreadsheet
      // reads it, with formula cells neutralised unless asked for raw values. The file's own
      // columns (its footer), so what is written is what is stored.
      await this.pool.use(async (connection) => {
        const scan = parquetScan(source.path);
        const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${scan}`);
        const columns = described.getRowObjects().map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
        const select = csvSelectList(columns, { raw: options.raw ?? false });
        await connection.run(`COPY (SELECT ${select} FROM ${scan}) TO ${sqlString(target)} (FORMAT csv, HEADER true)`);
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
