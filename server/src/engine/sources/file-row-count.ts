import { sqlString } from '../datasets/sql';
import type { DuckDBPool } from '../datasets/duckdb-pool';
import { csvScan, detectDelimiter } from './csv-sniffing';
import type { FileFormat } from './file-formats';

/**
 * A data file's record count before any run, for the cost estimate
 * (docs/decisions/0066-row-counts-before-runs.md): DuckDB counts a CSV/TSV or JSON file by parsing
 * it in its own threads (about a second per few hundred MB) and a Parquet file from its footer
 * alone. The file is read as import_file reads it by default (a header line, the delimiter guessed
 * from the first line, UTF-8), so the count is the records a run reads. Excel is not counted: its
 * rows are only known by unpacking and parsing the sheet's XML (decision 0063), which is no cheaper
 * than the run itself.
 */

/** Files larger than this are not counted (their count stays unknown): counting must stay cheap. */
export const ROW_COUNT_MAX_BYTES = 512 * 1024 * 1024;

/** A count taking longer is interrupted and stays unknown (a slow disk, a machine busy with runs). */
export const ROW_COUNT_TIMEOUT_MS = 20_000;

export const COUNTABLE_FORMATS: readonly FileFormat[] = ['csv', 'tsv', 'json', 'jsonl', 'parquet'];

function countSql(filePath: string, format: FileFormat, delimiter: Parameters<typeof csvScan>[1]['delimiter']): string | null {
  switch (format) {
    case 'csv':
    case 'tsv':
      return `SELECT count(*) FROM ${csvScan(filePath, { delimiter: format === 'tsv' ? 'tab' : delimiter, hasHeader: true, encoding: 'utf-8' })}`;
    case 'json':
    case 'jsonl':
      return `SELECT count(*) FROM read_json(${sqlString(filePath)}, format = ${format === 'json' ? "'auto'" : "'newline_delimited'"}, sample_size = 20480)`;
    case 'parquet':
      return `SELECT count(*) FROM read_parquet(${sqlString(filePath)})`;
    case 'xlsx':
      return null;
  }
}

/**
 * The records in the file at `filePath` (a folder DuckDB may read) read as `format`, or null when
 * it cannot be counted cheaply: Excel, empty, not well-formed (a run would fail and say why), or
 * not counted within `timeoutMs`.
 */
export async function countFileRows(
  pool: DuckDBPool,
  filePath: string,
  format: FileFormat,
  size: number,
  timeoutMs = ROW_COUNT_TIMEOUT_MS,
): Promise<number | null> {
  if (size === 0 || size > ROW_COUNT_MAX_BYTES) return null;
  const delimiter = format === 'csv' ? await detectDelimiter(filePath) : 'auto';
  const query = countSql(filePath, format, delimiter);
  if (!query) return null;
  try {
    return await pool.use(async (connection) => {
      const timer = setTimeout(() => connection.interrupt(), timeoutMs);
      try {
        const rows = (await connection.runAndReadAll(query)).getRows();
        return Number(rows[0]?.[0] ?? 0);
      } finally {
        clearTimeout(timer);
      }
    });
  } catch {
    return null;
  }
}
