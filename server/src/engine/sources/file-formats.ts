import fs from 'node:fs';
import path from 'node:path';
import type { DatasetMetadata } from '../datasets';
import { sqlString } from '../datasets/sql';
import { StepRunFailed } from '../runners/execute';
import type { RunContext } from '../runners/types';
import { csvCopyRead, csvRead, type CsvOptions } from './csv-sniffing';
import type { ReadOfCopy } from './deferred-file';
import { nothingToRemove, quoteName, sampleLimit, writeFileRead, type FileRead } from './source-dataset';
import { xlsxToJsonl } from './xlsx';

/** One data file of any format DuckDB (or exceljs, for Excel) reads, by format or by its name's ending. */

export const FILE_FORMATS = ['csv', 'tsv', 'json', 'jsonl', 'xlsx', 'parquet'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];
export const BY_EXTENSION: Record<string, FileFormat> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.xlsx': 'xlsx',
  '.parquet': 'parquet',
};

/** The format a file name's ending tells, or null. */
export const formatOf = (fileName: string): FileFormat | null => BY_EXTENSION[path.extname(fileName).toLowerCase()] ?? null;

/** How a CSV or TSV file is read by Import file and Import folder: a header line, UTF-8, the delimiter found or a tab. */
export const CSV_LIKE: Record<'csv' | 'tsv', CsvOptions> = {
  csv: { delimiter: 'auto', hasHeader: true, encoding: 'utf-8' },
  tsv: { delimiter: 'tab', hasHeader: true, encoding: 'utf-8' },
};

/**
 * How a deferred import reads its copy of a file of this format (sources/deferred-file.ts), or
 * null for Excel, which is converted and written instead (its cells are parsed off the event loop
 * into a temporary file a recipe could not keep).
 */
export function copyReadOf(ctx: RunContext, format: FileFormat): ReadOfCopy | null {
  if (format === 'xlsx') return null;
  if (format === 'csv' || format === 'tsv') return csvCopyRead(ctx, CSV_LIKE[format]);
  return async (path, size, what) => fileRead(ctx, format, path, size, '', what, Infinity);
}

/** Reads at most `limit` records (a preview's sample size, or what is left of it). */
export async function fileRead(
  ctx: RunContext,
  format: FileFormat,
  filePath: string,
  size: number,
  sheet: string,
  what: string,
  limit: number,
): Promise<FileRead> {
  switch (format) {
    case 'csv':
    case 'tsv':
      return csvRead(ctx, filePath, CSV_LIKE[format], what, size);
    case 'json':
    case 'jsonl':
      if (size === 0) throw new StepRunFailed(`${what} is empty`, null);
      return {
        select: `SELECT * FROM read_json(${sqlString(filePath)}, format = ${format === 'json' ? "'auto'" : "'newline_delimited'"}, sample_size = 20480)`,
        cleanup: nothingToRemove,
      };
    case 'parquet':
      return { select: `SELECT * FROM read_parquet(${sqlString(filePath)})`, cleanup: nothingToRemove };
    case 'xlsx': {
      const sheetRows = await xlsxToJsonl(ctx, filePath, size, sheet, what, limit);
      const cleanup = () => fs.promises.rm(sheetRows.file, { force: true });
      // No data rows: DuckDB cannot infer from nothing, so the header's columns are text.
      if (sheetRows.header)
        return { select: `SELECT ${sheetRows.header.map((name) => `CAST(NULL AS VARCHAR) AS ${quoteName(name)}`).join(', ')} WHERE false`, cleanup };
      return { select: `SELECT * FROM read_json(${sqlString(sheetRows.file)}, format = 'newline_delimited', sample_size = 20480)`, cleanup };
    }
  }
}

export async function readFileAs(ctx: RunContext, format: FileFormat, filePath: string, size: number, sheet: string, what: string): Promise<DatasetMetadata> {
  return writeFileRead(ctx, await fileRead(ctx, format, filePath, size, sheet, what, sampleLimit(ctx)), what);
}
