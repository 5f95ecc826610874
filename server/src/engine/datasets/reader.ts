import fs from 'node:fs';
import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';
import type { Log } from '../../lib/logger';
import type { DuckDBPool } from './duckdb-pool';
import { InvalidRecordsQuery, queryIssue, RecordNotFound } from './errors';
import { toJsonValue, type JsonRecord } from './json-values';
import { RECORD_ID, type DatasetColumn, type DatasetRef } from './metadata';
import type { LocalFile, ParquetFiles } from './parquet-files';
import { checkRecordsQuery, typeName, type ColumnShape, type RecordsQuery, type RecordsSort } from './records-query';
import { copyToParquet, parquetScan, quoteIdent, sqlString } from './sql';

export interface DatasetDescription {
  columns: DatasetColumn[];
  rowCount: number;
  bytes: number;
}

export interface RecordsPage {
  items: JsonRecord[];
  /** Records matching the filters, over all pages. */
  total: number;
  page: number;
  pageSize: number;
}

export interface DatasetReaderOptions {
  /**
   * Sorted pages of datasets with at least this many rows are read from an ordered copy (below).
   * Smaller datasets are sorted on every request, which is fast enough for them.
   */
  orderedCopyMinRows?: number;
  log?: Log;
}

/** What a Parquet file's footer says, kept per file: snapshots never change. */
interface Shape {
  columns: ColumnShape[];
  rowCount: number;
  bytes: number;
  /**
   * Whether DuckDB's virtual `file_row_number` column is usable: it is, unless the dataset has a
   * real column of that name, which hides it. Without it, pages fall back to LIMIT/OFFSET.
   */
  fileOrder: boolean;
}

const ROW_NUMBER = 'file_row_number';
/** A copy that failed to build is not tried again for this long (a full disk, a huge dataset). */
const COPY_RETRY_MS = 10 * 60_000;

/**
 * Reads snapshots: their shape, pages of records, one record. Straight from the Parquet file,
 * with DuckDB, on every request; what it remembers between requests is only what can never change
 * for an immutable file (its footer, the total of a filter) and ordered copies.
 *
 * How a page is read, cheapest first:
 * - No sort, no filter: the rows whose `file_row_number` falls in the page. DuckDB skips every row
 *   group outside it by the row-group offsets, so page 10,000 costs what page 1 does.
 * - Filters: a scan in file order with `LIMIT/OFFSET`; the total is a `count(*)` remembered per
 *   (dataset, filters), so paging through a filter counts once.
 * - Sort: a sorted scan of 1M rows costs hundreds of milliseconds (every row is read to find the
 *   top ones, and deep pages sort them all). So the first sorted request on a big dataset is
 *   answered that way and also starts an *ordered copy*: the same records written once, in that
 *   order, to a local Parquet file in the cache. Later pages in that order, filtered or not, read
 *   the copy in file order like the cases above. Ties keep the snapshot's order in both.
 */
export class DatasetReader {
  private readonly shapes = new BoundedMap<string, Shape>(512);
  private readonly totals = new BoundedMap<string, number>(2000);
  private readonly copiesBuilding = new Map<string, Promise<void>>();
  private readonly copiesFailed = new BoundedMap<string, number>(512);
  /** Ordered copies are built one at a time, so they never take every core from requests. */
  private copyQueue: Promise<void> = Promise.resolve();
  private readonly orderedCopyMinRows: number;

  constructor(
    private readonly pool: DuckDBPool,
    private readonly files: ParquetFiles,
    private readonly options: DatasetReaderOptions = {},
  ) {
    this.orderedCopyMinRows = options.orderedCopyMinRows ?? 100_000;
  }

  /** Columns and their types, rows and bytes, from the Parquet footer (nothing is scanned). */
  async describe(ref: DatasetRef): Promise<DatasetDescription> {
    return this.withFile(ref, async (file, connection) => {
      const shape = await this.shape(connection, file.path);
      return { columns: shape.columns.map((c) => ({ name: c.name, type: typeName(c.type) })), rowCount: shape.rowCount, bytes: shape.bytes };
    });
  }

  /** One page of records. Throws InvalidRecordsQuery (unknown column, a value of the wrong type…). */
  async records(ref: DatasetRef, query: RecordsQuery): Promise<RecordsPage> {
    return this.withFile(ref, async (file, connection) => {
      const shape = await this.shape(connection, file.path);
      const q = checkRecordsQuery(shape.columns, query);

      let copy: LocalFile | null = null;
      if (q.orderBy && shape.fileOrder && shape.rowCount >= this.orderedCopyMinRows) {
        copy = this.files.peekDerived(copyName(ref.storageKey, q.sort));
        if (!copy) this.startOrderedCopy(ref.storageKey, q.sort, q.orderBy);
      }
      try {
        const scan = parquetScan(copy?.path ?? file.path);
        // In the copy, file order is the asked-for order.
        const orderBy = copy ? null : q.orderBy;
        const where = q.where ? ` WHERE ${q.where}` : '';

        const total = q.where ? await this.total(connection, ref.storageKey, scan, q.where, q.whereParams, q.filterKey) : shape.rowCount;
        const page = { items: [] as JsonRecord[], total, page: q.page, pageSize: q.pageSize };
        if (q.offset >= total) return page;

        let sql: string;
        let params: (string | bigint)[];
        const offset = BigInt(q.offset);
        const limit = BigInt(q.pageSize);
        if (!orderBy && !q.where && shape.fileOrder) {
          sql = `SELECT ${q.select} FROM ${scan} WHERE ${ROW_NUMBER} >= $1 AND ${ROW_NUMBER} < $2`;
          params = [offset, offset + limit];
        } else {
          const n = q.whereParams.length;
          // Ties end in file order, so a page never shows a record twice or skips one.
          const order = orderBy ? ` ORDER BY ${orderBy}, ${shape.fileOrder ? ROW_NUMBER : quoteIdent(RECORD_ID)}` : '';
          sql = `SELECT ${q.select} FROM ${scan}${where}${order} LIMIT $${n + 1} OFFSET $${n + 2}`;
          params = [...q.whereParams, limit, offset];
        }
        page.items = await this.rows(connection, sql, params);
        return page;
      } finally {
        copy?.release();
      }
    });
  }

  /** The record whose `_id` is `recordId`. Throws RecordNotFound. */
  async record(ref: DatasetRef, recordId: string): Promise<JsonRecord> {
    if (typeof recordId !== 'string' || recordId.length > 512 || recordId.includes('\0')) throw new RecordNotFound(String(recordId).slice(0, 64));
    return this.withFile(ref, async (file, connection) => {
      const [found] = await this.rows(connection, `SELECT * FROM ${parquetScan(file.path)} WHERE ${quoteIdent(RECORD_ID)} = $1 LIMIT 1`, [recordId]);
      if (!found) throw new RecordNotFound(recordId);
      return found;
    });
  }

  /** Resolves once no ordered copy is being built (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.copiesBuilding.size) await Promise.all(this.copiesBuilding.values());
  }

  private async withFile<T>(ref: DatasetRef, work: (file: LocalFile, connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const file = await this.files.open(ref.storageKey);
    try {
      return await this.pool.use((connection) => work(file, connection));
    } finally {
      file.release();
    }
  }

  private async shape(connection: DuckDBConnection, file: string): Promise<Shape> {
    const known = this.shapes.get(file);
    if (known) return known;
    // Preparing (not running) a SELECT * reads only the footer and tells every column's type.
    const prepared = await connection.prepare(`SELECT * FROM ${parquetScan(file)}`);
    const columns: ColumnShape[] = [];
    for (let i = 0; i < prepared.columnCount; i++) columns.push({ name: prepared.columnName(i), type: prepared.columnType(i) });
    prepared.destroySync();
    const meta = await connection.runAndReadAll(`SELECT num_rows FROM parquet_file_metadata(${sqlString(file)})`);
    const shape: Shape = {
      columns,
      rowCount: Number(meta.getRows()[0]?.[0] ?? 0),
      bytes: (await fs.promises.stat(file)).size,
      fileOrder: !columns.some((c) => c.name === ROW_NUMBER),
    };
    this.shapes.set(file, shape);
    return shape;
  }

  private async total(connection: DuckDBConnection, storageKey: string, scan: string, where: string, params: string[], filterKey: string): Promise<number> {
    const key = `${storageKey}\0${filterKey}`;
    const known = this.totals.get(key);
    if (known !== undefined) return known;
    const [row] = await this.rows(connection, `SELECT count(*) AS n FROM ${scan} WHERE ${where}`, params);
    const total = Number(row.n);
    this.totals.set(key, total);
    return total;
  }

  private async rows(connection: DuckDBConnection, sql: string, params: (string | bigint)[]): Promise<JsonRecord[]> {
    let prepared: DuckDBPreparedStatement | null = null;
    try {
      prepared = await connection.prepare(sql);
      params.forEach((value, i) => (typeof value === 'bigint' ? prepared!.bindBigInt(i + 1, value) : prepared!.bindVarchar(i + 1, value)));
      const result = await prepared.runAndReadAll();
      const names = result.columnNames();
      // The result's column types, not its vectors': only they still say JSON for JSON text.
      const types = result.columnTypes();
      // Object.fromEntries defines own properties, so a column called __proto__ stays a column.
      return result.getRows().map((row) => Object.fromEntries(row.map((value, i) => [names[i], toJsonValue(value, types[i], toJsonValue)])));
    } catch (err) {
      // Values are checked before they are bound; what slips through (a decimal too wide for its
      // column) is still the caller's value, not our failure.
      // (DuckDB's errors are checked by message: they need not be this realm's Error.)
      if (/^Conversion Error/.test(String((err as { message?: unknown })?.message))) {
        throw new InvalidRecordsQuery([queryIssue('bad_value', 'server.datasets.badFilterValue', ['filters'])]);
      }
      throw err;
    } finally {
      prepared?.destroySync();
    }
  }

  /** Starts building the ordered copy in the background; the request that asked does not wait. */
  private startOrderedCopy(storageKey: string, sort: RecordsSort[], orderBy: string) {
    const name = copyName(storageKey, sort);
    const failedAt = this.copiesFailed.get(name);
    if (this.copiesBuilding.has(name) || (failedAt && Date.now() - failedAt < COPY_RETRY_MS)) return;
    const build = async () => {
      const source = await this.files.open(storageKey);
      try {
        const copy = await this.files.derived(name, (target) =>
          this.pool.use(async (connection) => {
            // ZSTD at level 1: the copy is a local cache, written once and read often; the
            // snapshot's own compression level buys little here and costs write time.
            await connection.run(copyToParquet(`SELECT * FROM ${parquetScan(source.path)} ORDER BY ${orderBy}, ${ROW_NUMBER}`, target, 1));
          }),
        );
        copy.release();
      } finally {
        source.release();
      }
    };
    const work = (this.copyQueue = this.copyQueue.then(build).catch((err: unknown) => {
      this.copiesFailed.set(name, Date.now());
      this.options.log?.warn({ err, storageKey, sort }, 'ordered copy of a dataset failed; sorted pages are read from the snapshot');
    }));
    this.copiesBuilding.set(name, work);
    void work.finally(() => this.copiesBuilding.delete(name));
  }
}

const copyName = (storageKey: string, sort: RecordsSort[]) => `ordered\0${storageKey}\0${JSON.stringify(sort.map((s) => [s.column, s.direction]))}`;

/** A Map that forgets its oldest entries beyond `max`. */
class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }
}
