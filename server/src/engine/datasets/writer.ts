import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  dateValue,
  DuckDBDataChunkWriter,
  timestampTZValue,
  timestampValue,
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { Storage } from '../../storage/storage';
import type { DuckDBPool } from './duckdb-pool';
import { DatasetAlreadyStored, InvalidDatasetInput } from './errors';
import { datasetKey, RECORD_ID, type DatasetColumn, type DatasetMetadata, type DatasetRef } from './metadata';
import type { LocalFile, ParquetFiles } from './parquet-files';
import { typeName } from './records-query';
import { copyToParquet, parquetScan, quoteIdent, sqlString } from './sql';

/** Types a JS row's values can be declared with (per-record steps' outputs). */
export const ROW_COLUMN_TYPES = ['VARCHAR', 'BIGINT', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'TIMESTAMPTZ', 'JSON'] as const;
export type RowColumnType = (typeof ROW_COLUMN_TYPES)[number];

export interface RowColumn {
  name: string;
  type: RowColumnType;
}

/** One batch of rows: column name → value; keys not among the declared columns are ignored. */
export type RowBatch = readonly Record<string, unknown>[];

/** The new snapshot is what a query returns, in the order it returns it. */
export interface SqlSource {
  /**
   * The SELECT, given one table expression per input (`inputs[0]` reads the first input's
   * snapshot). Values from people go in `params` as `$1`…, never into the text.
   */
  sql: (inputs: readonly string[]) => string;
  params?: readonly (string | number | boolean | null)[];
}

/** The new snapshot is these rows, in order (a per-record step's results, batch by batch). */
export interface RowsSource {
  columns: readonly RowColumn[];
  batches: Iterable<RowBatch> | AsyncIterable<RowBatch>;
}

export interface WriteDataset {
  ownerId: string;
  name: string;
  /**
   * Made here when absent. A retry of a write that stored nothing may pass the same id again:
   * generated `_id`s come out the same. One that was stored is refused (DatasetAlreadyStored).
   */
  datasetId?: string;
  stepRunId?: string | null;
  /** What the source reads (SqlSource's `inputs`), and the new dataset's lineage, in order. */
  inputs?: readonly (DatasetRef & { id: string })[];
  source: SqlSource | RowsSource;
  /**
   * The caller vouches that the `_id`s the source keeps are non-null and each appears once (see
   * SqlRunner.keepsIdsUnique): the check after writing, a distinct count over the whole file, is
   * skipped. Absent: checked, and repaired when they are not.
   */
  idsUnique?: boolean;
}

export interface DatasetWriterOptions {
  /** Folder for snapshots being written (inside DuckDB's allowed directories). */
  tempDir: string;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Writes immutable snapshots: the source goes through DuckDB into a Parquet file in `tempDir`
 * (never visible under its key while half-written), which is then put in the storage under
 * `datasets/<ownerId>/<datasetId>.parquet`. On S3 the file moves into the local cache afterwards,
 * since whoever wrote a dataset usually reads it next.
 *
 * Record ids (`_id`, the first column, text):
 * - An input's `_id` column is kept as it is, so a record keeps its identity through filters,
 *   sorts, joins and per-record steps: the UI can follow one record from step to step.
 * - A record without one (a new source, or a `_id` that is null or repeats an earlier row's, as a
 *   join fanning out or a union of a dataset with itself makes) gets a new one. New ids are
 *   deterministic, not random: the first 24 characters of the dataset id (a random UUID, so no
 *   two datasets share them) and the row's position as 12 hex digits, e.g.
 *   `3f2a9c1e-77b0-4d2e-9a41-00000000002a` for row 42. So a retried write of the same dataset
 *   gives every record the same id again (checkpointed batches rely on that), ids are still
 *   UUID-shaped and unique everywhere, and in a fresh dataset they rise with the row order, so
 *   Parquet's min/max statistics let a lookup by `_id` skip almost every row group.
 *
 * Column types are what DuckDB's Parquet writer makes of the source's: the same for every common
 * type, but Parquet has no 128-bit integer, so HUGEINT and UHUGEINT columns come back as DOUBLE
 * (a step needing exact big numbers casts them to DECIMAL(38,0) or text itself). The metadata's
 * columns are read back from the written file, so they always say what readers will see.
 */
export class DatasetWriter {
  private tidied: Promise<void> | null = null;

  constructor(
    private readonly pool: DuckDBPool,
    private readonly files: ParquetFiles,
    private readonly storage: Storage,
    private readonly options: DatasetWriterOptions,
  ) {}

  async write(request: WriteDataset): Promise<DatasetMetadata> {
    const id = request.datasetId ?? randomUUID();
    if (!uuid.test(id)) throw new Error(`A dataset id must be a lower-case UUID, got ${JSON.stringify(id)}`);
    const storageKey = datasetKey(request.ownerId, id);
    // Checked first, not after the work: a snapshot is immutable once stored.
    if (await this.storage.head(storageKey)) throw new DatasetAlreadyStored(storageKey);
    await (this.tidied ??= this.removeStaleTemporaries());
    const temp = path.join(this.options.tempDir, `${id}.${randomUUID()}.parquet`);
    const leases: LocalFile[] = [];
    try {
      for (const input of request.inputs ?? []) leases.push(await this.files.open(input.storageKey));
      const { columns, rowCount } = await this.pool.use((connection) =>
        this.writeParquet(
          connection,
          request.source,
          leases.map((l) => parquetScan(l.path)),
          id,
          temp,
          request.idsUnique,
        ),
      );
      const bytes = (await fs.promises.stat(temp)).size;
      await this.storage.put(storageKey, fs.createReadStream(temp));
      if (!(await this.files.adopt(storageKey, temp))) await fs.promises.rm(temp, { force: true });
      return {
        id,
        ownerId: request.ownerId,
        name: request.name,
        storageKey,
        columns,
        rowCount,
        bytes,
        stepRunId: request.stepRunId ?? null,
        parentIds: (request.inputs ?? []).map((input) => input.id),
        createdAt: new Date().toISOString(),
      };
    } finally {
      for (const lease of leases) lease.release();
      await fs.promises.rm(temp, { force: true });
    }
  }

  /**
   * Once per process: files a crash left in the temporary folder. Only those untouched for a day,
   * since another process on the same DATA_DIR may be writing its own right now.
   */
  private async removeStaleTemporaries() {
    const dir = this.options.tempDir;
    await fs.promises.mkdir(dir, { recursive: true });
    const before = Date.now() - 24 * 3600_000;
    for (const name of await fs.promises.readdir(dir)) {
      const file = path.join(dir, name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (stat?.isFile() && stat.mtimeMs < before) await fs.promises.rm(file, { force: true });
    }
  }

  private async writeParquet(connection: DuckDBConnection, source: SqlSource | RowsSource, inputs: string[], id: string, temp: string, idsUnique = false) {
    let relation: string;
    let params: readonly (string | number | boolean | null)[] = [];
    let staged: string | null = null;
    if ('batches' in source) {
      staged = await stageRows(connection, source);
      relation = staged;
    } else {
      relation = `(${source.sql(inputs)})`;
      params = source.params ?? [];
    }
    try {
      const names = await columnNames(connection, `SELECT * FROM ${relation}`, params);
      const seen = new Set<string>();
      for (const name of names) {
        if (seen.has(name)) throw new InvalidDatasetInput('server.datasets.duplicateColumn', { column: name });
        seen.add(name);
      }
      // Row positions number new ids; `row_number() OVER ()` follows the rows' order (DuckDB keeps
      // insertion order, see duckdb-pool.ts), so the ids rise with the file.
      const prefix = sqlString(id.slice(0, 24));
      const newId = `printf('%s%012x', ${prefix}, row_number() OVER () - 1)`;
      const id_ = quoteIdent(RECORD_ID);
      const select = seen.has(RECORD_ID)
        ? `SELECT CAST(${id_} AS VARCHAR) AS ${id_}, * EXCLUDE (${id_}) FROM ${relation}`
        : `SELECT ${newId} AS ${id_}, * FROM ${relation}`;
      await run(connection, copyToParquet(select, temp), params);

      if (seen.has(RECORD_ID) && !idsUnique) await this.repairIds(connection, temp, newId);
      const prepared = await connection.prepare(`SELECT * FROM ${parquetScan(temp)}`);
      const columns: DatasetColumn[] = [];
      for (let i = 0; i < prepared.columnCount; i++) columns.push({ name: prepared.columnName(i), type: typeName(prepared.columnType(i)) });
      prepared.destroySync();
      const count = await connection.runAndReadAll(`SELECT num_rows FROM parquet_file_metadata(${sqlString(temp)})`);
      return { columns, rowCount: Number(count.getRows()[0]?.[0] ?? 0) };
    } finally {
      if (staged) await connection.run(`DROP TABLE IF EXISTS ${staged}`);
    }
  }

  /**
   * Kept ids must still name one record each. Checked on the written file (one column of Parquet,
   * cheaper than running the step's query twice); in the rare case they do not, the file is
   * rewritten with new ids for the nulls and for every repeat after a record's first.
   */
  private async repairIds(connection: DuckDBConnection, file: string, newId: string) {
    const id_ = quoteIdent(RECORD_ID);
    const check = await connection.runAndReadAll(`SELECT count(*) - count(${id_}), count(*) - count(DISTINCT ${id_}) FROM ${parquetScan(file)}`);
    const [missing, repeated] = check.getRows()[0].map(Number);
    if (!missing && !repeated) return;
    const fixed = `${file}.ids.parquet`;
    try {
      await connection.run(
        copyToParquet(
          `SELECT CASE WHEN ${id_} IS NULL OR row_number() OVER (PARTITION BY ${id_} ORDER BY __stepwise_row) > 1 THEN __stepwise_new ELSE ${id_} END AS ${id_},
                  * EXCLUDE (${id_}, __stepwise_row, __stepwise_new)
           FROM (SELECT *, row_number() OVER () AS __stepwise_row, ${newId} AS __stepwise_new FROM ${parquetScan(file)})
           ORDER BY __stepwise_row`,
          fixed,
        ),
      );
      await fs.promises.rename(fixed, file);
    } finally {
      await fs.promises.rm(fixed, { force: true });
    }
  }
}

async function columnNames(connection: DuckDBConnection, sql: string, params: readonly (string | number | boolean | null)[] = []): Promise<string[]> {
  // Preparing tells the result's columns without running the query (or binding its parameters)…
  const prepared = await connection.prepare(sql);
  try {
    const undecided = prepared.columnCount === 1 && prepared.columnName(0) === 'unknown';
    if (!params.length || !undecided) {
      return Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnName(i));
    }
  } finally {
    prepared.destroySync();
  }
  // …unless a parameter's type depends on its value (`$1 * 2 AS x` in the select list): DuckDB then
  // answers one column "unknown", and only running it with the values bound (no rows) tells them.
  const result = await run(connection, `SELECT * FROM (${sql}) LIMIT 0`, params);
  return result.columnNames();
}

/** Runs `sql` with `$1…` bound to `params`. */
export async function runBound(connection: DuckDBConnection, sql: string, params: readonly (string | number | boolean | null)[]) {
  return run(connection, sql, params);
}

async function run(connection: DuckDBConnection, sql: string, params: readonly (string | number | boolean | null)[]) {
  let prepared: DuckDBPreparedStatement | null = null;
  try {
    prepared = await connection.prepare(sql);
    params.forEach((value, i) => {
      const at = i + 1;
      if (value === null) prepared!.bindNull(at);
      else if (typeof value === 'boolean') prepared!.bindBoolean(at, value);
      else if (typeof value === 'number') {
        if (Number.isSafeInteger(value)) prepared!.bindBigInt(at, BigInt(value));
        else prepared!.bindDouble(at, value);
      } else prepared!.bindVarchar(at, value);
    });
    return await prepared.run();
  } finally {
    prepared?.destroySync();
  }
}

const sqlTypes: Record<RowColumnType, string> = {
  VARCHAR: 'VARCHAR',
  BIGINT: 'BIGINT',
  DOUBLE: 'DOUBLE',
  BOOLEAN: 'BOOLEAN',
  DATE: 'DATE',
  TIMESTAMP: 'TIMESTAMP',
  TIMESTAMPTZ: 'TIMESTAMP WITH TIME ZONE',
  JSON: 'JSON',
};

/**
 * Appends the rows to a temporary table of this connection (DuckDB spills it to disk past its
 * memory limit), checking each value against its declared type on the way: a step that promised
 * a BIGINT and produced "abc" fails naming the row and column, instead of a vague DuckDB error.
 */
async function stageRows(connection: DuckDBConnection, source: RowsSource): Promise<string> {
  const names = new Set<string>();
  for (const column of source.columns) {
    if (typeof column.name !== 'string' || !column.name || column.name.length > 255 || column.name.includes('\0'))
      throw new InvalidDatasetInput('server.datasets.invalidColumnName', { column: String(column.name).slice(0, 64) });
    if (names.has(column.name)) throw new InvalidDatasetInput('server.datasets.duplicateColumn', { column: column.name });
    if (!ROW_COLUMN_TYPES.includes(column.type) || (column.name === RECORD_ID && column.type !== 'VARCHAR'))
      throw new InvalidDatasetInput('server.datasets.invalidColumnType', { column: column.name, type: String(column.type).slice(0, 64) });
    names.add(column.name);
  }
  const table = quoteIdent(`stepwise_rows_${randomUUID().replaceAll('-', '')}`);
  await connection.run(`CREATE TEMP TABLE ${table} (${source.columns.map((c) => `${quoteIdent(c.name)} ${sqlTypes[c.type]}`).join(', ')})`);
  const appender = await connection.createAppender(table.slice(1, -1));
  try {
    const writer = DuckDBDataChunkWriter.forAppender(appender);
    let row = 0;
    const values: (DuckDBValue | null)[] = [];
    for await (const batch of source.batches) {
      for (const record of batch) {
        values.length = 0;
        for (const column of source.columns) values.push(duckValue(record[column.name], column, row));
        writer.appendRow(values);
        row++;
      }
      // Handed to DuckDB at the end of each batch rather than at 2,048 rows, so no more than one
      // batch's values are held here: a source bounds its batches' memory (import_folder's contents).
      writer.flush();
    }
    writer.flush();
  } finally {
    appender.closeSync();
  }
  return table;
}

const MICROS_PER_MS = 1000n;
const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/;
const hasZone = /(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** A JS value as the DuckDB value of its declared column type; a mismatch names row and column. */
function duckValue(value: unknown, column: RowColumn, row: number): DuckDBValue | null {
  if (value === null || value === undefined) return null;
  const wrong = () => new InvalidDatasetInput('server.datasets.invalidRowValue', { row: row + 1, column: column.name, type: column.type });
  switch (column.type) {
    case 'VARCHAR':
      if (typeof value !== 'string') throw wrong();
      return value;
    case 'BIGINT':
      if (typeof value === 'bigint' && value >= -(2n ** 63n) && value < 2n ** 63n) return value;
      if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
      throw wrong();
    case 'DOUBLE':
      if (typeof value !== 'number') throw wrong();
      return value;
    case 'BOOLEAN':
      if (typeof value !== 'boolean') throw wrong();
      return value;
    case 'DATE': {
      const m = typeof value === 'string' ? dateOnly.exec(value) : null;
      const ms = value instanceof Date ? value.getTime() : m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
      if (!Number.isFinite(ms) || (m && new Date(ms).toISOString().slice(0, 10) !== value)) throw wrong();
      return dateValue(Math.floor(ms / 86_400_000));
    }
    case 'TIMESTAMP':
    case 'TIMESTAMPTZ': {
      // A text without a zone is read as UTC, never as this machine's local time.
      const ms =
        value instanceof Date
          ? value.getTime()
          : typeof value === 'string'
            ? Date.parse(hasZone.test(value) || dateOnly.test(value) ? value : `${value}Z`)
            : NaN;
      if (!Number.isFinite(ms)) throw wrong();
      const micros = BigInt(ms) * MICROS_PER_MS;
      return column.type === 'TIMESTAMP' ? timestampValue(micros) : timestampTZValue(micros);
    }
    case 'JSON': {
      let text: string | undefined;
      try {
        text = JSON.stringify(value);
      } catch {
        throw wrong();
      }
      if (text === undefined) throw wrong();
      return text;
    }
  }
}
