/**
 * The two ways text gets into SQL here besides bound parameters. Values from users are always
 * bound (`$1`…); these are for what cannot be a parameter: column names (checked against the
 * dataset's columns first, then quoted) and the file paths of our own Parquet files (DuckDB needs
 * them when the statement is prepared, to know the columns).
 */

/** A quoted identifier: `"name"`, with inner quotes doubled, so any column name is one name. */
export function quoteIdent(name: string): string {
  if (name.includes('\0')) throw new Error('A column name cannot contain NUL');
  return `"${name.replaceAll('"', '""')}"`;
}

/** A quoted string literal: `'text'`, with inner quotes doubled. */
export function sqlString(text: string): string {
  if (text.includes('\0')) throw new Error('A SQL string cannot contain NUL');
  return `'${text.replaceAll("'", "''")}'`;
}

/** The table expression that reads one Parquet file. */
export const parquetScan = (filePath: string) => `read_parquet(${sqlString(filePath)})`;

/**
 * Rows per Parquet row group, for snapshots and ordered copies alike. DuckDB's default (122,880)
 * makes reading one page decode up to 122,880 rows of every selected column; 16,384 (eight DuckDB
 * vectors) keeps that small while the footer stays small too (62 row groups for 1M rows).
 */
export const ROW_GROUP_ROWS = 16_384;

/**
 * The statement that writes `select` to a Parquet file. ZSTD: snapshots are stored (and on S3
 * downloaded) once and read many times, and ZSTD is both smaller than Snappy and about as fast to
 * read; `level` trades write time for size (DuckDB's default is 3).
 */
export const copyToParquet = (select: string, target: string, level = 3) =>
  `COPY (${select}) TO ${sqlString(target)} (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL ${level}, ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`;
