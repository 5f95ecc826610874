import fs from 'node:fs';
import type { DuckDBConnection, DuckDBListValue, DuckDBPreparedStatement, DuckDBResultReader } from '@duckdb/node-api';
import type { Log } from '../../lib/logger';
import type { DuckDBPool } from './duckdb-pool';
import { InvalidRecordsQuery, queryIssue, RecordNotFound } from './errors';
import { jsonRecords, type JsonRecord } from './json-values';
import { RECORD_ID, type DatasetColumn, type DatasetRef } from './metadata';
import type { LocalFile, ParquetFiles } from './parquet-files';
import { checkRecordsQuery, typeName, type CheckedQuery, type ColumnShape, type RecordsQuery, type RecordsSort } from './records-query';
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

interface Page {
  items: JsonRecord[];
  total: number;
}

export interface DatasetReaderOptions {
  /**
   * Sorted pages of datasets with at least this many rows are read from an ordered copy (below).
   * Smaller datasets are sorted on every request, which is fast enough for them.
   */
  orderedCopyMinRows?: number;
  /** Filters matching more records than this keep only their count (see `selection`). */
  selectionMaxRows?: number;
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
/** All kept selections together (see `selection`). */
const SELECTIONS_MAX_BYTES = 64 * 2 ** 20;
/** A copy that failed to build is not tried again for this long (a full disk, a huge dataset). */
const COPY_RETRY_MS = 10 * 60_000;

/**
 * Reads snapshots: their shape, pages of records, one record. Straight from the Parquet file,
 * with DuckDB, on every request; what it remembers between requests is only what can never change
 * for an immutable file (its footer, which rows match a filter) and ordered copies.
 *
 * How a page is read, cheapest first:
 * - No sort, no filter: the rows whose `file_row_number` falls in the page. DuckDB skips every row
 *   group outside it by the row-group offsets, so page 10,000 costs what page 1 does.
 * - Filters: the first request finds the row numbers of every match (reading only the filtered
 *   columns) and keeps them; every page, the first included, then fetches its 50 rows by row
 *   number, and the total is their count. Filters matching more than 250,000 records keep only
 *   their count, and find each page's row numbers with `LIMIT/OFFSET` over the filtered columns.
 * - Sort: a sorted scan of 1M rows costs hundreds of milliseconds (every row is read to find the
 *   top ones, and deep pages sort them all). So the first sorted request on a big dataset is
 *   answered that way and also starts an *ordered copy*: the same records written once, in that
 *   order, to a local Parquet file in the cache. Later pages in that order, filtered or not, read
 *   the copy in file order like the cases above. Ties keep the snapshot's order in both.
 */
export class DatasetReader {
  private readonly shapes = new BoundedMap<string, Shape>(512);
  private readonly totals = new BoundedMap<string, number>(2000);
  private readonly selections = new BoundedMap<string, Uint32Array>(Number.MAX_SAFE_INTEGER, SELECTIONS_MAX_BYTES);
  private readonly copiesBuilding = new Map<string, Promise<void>>();
  private readonly copiesFailed = new BoundedMap<string, number>(512);
  /** Ordered copies are built one at a time, so they never take every core from requests. */
  private copyQueue: Promise<void> = Promise.resolve();
  private readonly orderedCopyMinRows: number;
  private readonly selectionMaxRows: number;
  private closing = false;

  constructor(
    private readonly pool: DuckDBPool,
    private readonly files: ParquetFiles,
    private readonly options: DatasetReaderOptions = {},
  ) {
    this.orderedCopyMinRows = options.orderedCopyMinRows ?? 100_000;
    // 1 MiB of row numbers per filter at most.
    this.selectionMaxRows = options.selectionMaxRows ?? 250_000;
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
      const copy = this.orderedCopy(ref.storageKey, shape, q);
      try {
        // In the copy, file order is the asked-for order.
        const source = copy?.path ?? file.path;
        const sorted = q.orderBy !== null && !copy;
        const { items, total } =
          sorted || !shape.fileOrder
            ? await this.pageByOffset(connection, source, shape, q, sorted)
            : q.where
              ? await this.pageOfFilter(connection, source, q, q.where)
              : await this.pageByRowNumber(connection, source, shape, q);
        return { items, total, page: q.page, pageSize: q.pageSize };
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

  /** Starts no more ordered copies; the pool's close interrupts one being built. */
  stopCopies() {
    this.closing = true;
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
    const columns = await fileColumns(connection, file);
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

  /** The ordered copy for this sort when it is built (held until released); else starts it, if worth it. */
  private orderedCopy(storageKey: string, shape: Shape, q: CheckedQuery): LocalFile | null {
    if (!q.orderBy || !shape.fileOrder || shape.rowCount < this.orderedCopyMinRows) return null;
    const copy = this.files.peekDerived(copyName(storageKey, q.sort));
    if (!copy) this.startOrderedCopy(storageKey, q.sort, q.orderBy);
    return copy;
  }

  /** No filter, in file order: the rows whose numbers fall in the page. */
  private async pageByRowNumber(connection: DuckDBConnection, file: string, shape: Shape, q: CheckedQuery): Promise<Page> {
    if (q.offset >= shape.rowCount) return { items: [], total: shape.rowCount };
    const from = BigInt(q.offset);
    const items = await this.rows(connection, `SELECT ${q.select} FROM ${parquetScan(file)} WHERE ${ROW_NUMBER} >= $1 AND ${ROW_NUMBER} < $2`, [
      from,
      from + BigInt(q.pageSize),
    ]);
    return { items, total: shape.rowCount };
  }

  /** Filtered, in file order: a slice of the kept matches, or of the page's matches by OFFSET. */
  private async pageOfFilter(connection: DuckDBConnection, file: string, q: CheckedQuery, where: string): Promise<Page> {
    const scan = parquetScan(file);
    const selection = await this.selection(connection, file, where, q.whereParams, q.filterKey);
    if (typeof selection !== 'number') {
      return { items: await this.rowsAt(connection, scan, q.select, selection.subarray(q.offset, q.offset + q.pageSize)), total: selection.length };
    }
    // Too many matches to keep: the page's row numbers by OFFSET, reading only the filtered
    // columns, then its records by row number.
    if (q.offset >= selection) return { items: [], total: selection };
    const n = q.whereParams.length;
    const found = await this.query(connection, `SELECT ${ROW_NUMBER}::UINTEGER FROM ${scan} WHERE ${where} LIMIT $${n + 1} OFFSET $${n + 2}`, [
      ...q.whereParams,
      BigInt(q.pageSize),
      BigInt(q.offset),
    ]);
    return { items: await this.rowsAt(connection, scan, q.select, rowNumbersOf(found)), total: selection };
  }

  /**
   * Sorted without an ordered copy (yet, or the dataset is small), or a dataset whose own
   * `file_row_number` column hides DuckDB's: the query as it is, with LIMIT/OFFSET.
   */
  private async pageByOffset(connection: DuckDBConnection, file: string, shape: Shape, q: CheckedQuery, sorted: boolean): Promise<Page> {
    const total = q.where ? await this.count(connection, file, q.where, q.whereParams, q.filterKey) : shape.rowCount;
    if (q.offset >= total) return { items: [], total };
    const n = q.whereParams.length;
    // Ties end in file order, so a page never shows a record twice or skips one.
    const order = sorted && q.orderBy ? ` ORDER BY ${q.orderBy}, ${shape.fileOrder ? ROW_NUMBER : quoteIdent(RECORD_ID)}` : '';
    const where = q.where ? ` WHERE ${q.where}` : '';
    const items = await this.rows(connection, `SELECT ${q.select} FROM ${parquetScan(file)}${where}${order} LIMIT $${n + 1} OFFSET $${n + 2}`, [
      ...q.whereParams,
      BigInt(q.pageSize),
      BigInt(q.offset),
    ]);
    return { items, total };
  }

  /** How many records match, counted once per (file, filters). */
  private async count(connection: DuckDBConnection, file: string, where: string, params: string[], filterKey: string): Promise<number> {
    const key = `${file}\0${filterKey}`;
    const known = this.totals.get(key);
    if (known !== undefined) return known;
    const [row] = await this.rows(connection, `SELECT count(*) AS n FROM ${parquetScan(file)} WHERE ${where}`, params);
    const total = Number(row.n);
    this.totals.set(key, total);
    return total;
  }

  /**
   * The row numbers of every matching record in file order, found once per (file, filters) and
   * kept: a page is then a slice of them, and fetching 50 records by row number costs the same on
   * page 1 and page 900 (a scan with OFFSET evaluates the filter on every row before the page,
   * which for `contains` over a million texts is hundreds of milliseconds). Filters matching more
   * than `selectionMaxRows` records are only counted (the answer is then that number).
   */
  private async selection(connection: DuckDBConnection, file: string, where: string, params: string[], filterKey: string): Promise<Uint32Array | number> {
    const key = `${file}\0${filterKey}`;
    const known = this.selections.get(key) ?? this.totals.get(key);
    if (known !== undefined) return known;
    // One scan answers both: the count, and the row numbers when there are few enough to keep.
    // (list() gathers them in no particular order across threads; they are sorted here.)
    const n = params.length;
    const found = await this.query(
      connection,
      `SELECT count(*), CASE WHEN count(*) <= $${n + 1} THEN list(${ROW_NUMBER}::UINTEGER) END FROM ${parquetScan(file)} WHERE ${where}`,
      [...params, BigInt(this.selectionMaxRows)],
    );
    const [total, list] = found.getRows()[0] as [bigint, DuckDBListValue | null];
    if (!list) {
      this.totals.set(key, Number(total));
      return Number(total);
    }
    const rows = Uint32Array.from(list.items as number[]).sort();
    this.selections.set(key, rows, rows.byteLength + key.length * 2);
    return rows;
  }

  /** The records at these row numbers (ascending), in that order. */
  private async rowsAt(connection: DuckDBConnection, scan: string, select: string, rowNumbers: Uint32Array): Promise<JsonRecord[]> {
    if (!rowNumbers.length) return [];
    // The numbers are ours (read from DuckDB into a Uint32Array), not anyone's input, so they go
    // into the text: the range lets DuckDB skip the row groups outside it, and the list is at
    // most one page long.
    const first = rowNumbers[0];
    const last = rowNumbers[rowNumbers.length - 1];
    return this.rows(
      connection,
      `SELECT ${select} FROM ${scan} WHERE ${ROW_NUMBER} BETWEEN ${first} AND ${last} AND ${ROW_NUMBER} IN (${rowNumbers.join(', ')})`,
      [],
    );
  }

  private async rows(connection: DuckDBConnection, sql: string, params: (string | bigint)[]): Promise<JsonRecord[]> {
    const result = await this.query(connection, sql, params);
    return jsonRecords(result.columnNames(), result.columnTypes(), result.getRows());
  }

  private async query(connection: DuckDBConnection, sql: string, params: (string | bigint)[]): Promise<DuckDBResultReader> {
    let prepared: DuckDBPreparedStatement | null = null;
    try {
      prepared = await connection.prepare(sql);
      params.forEach((value, i) => (typeof value === 'bigint' ? prepared!.bindBigInt(i + 1, value) : prepared!.bindVarchar(i + 1, value)));
      return await prepared.runAndReadAll();
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
    if (this.closing || this.copiesBuilding.has(name) || (failedAt && Date.now() - failedAt < COPY_RETRY_MS)) return;
    const build = async () => {
      if (this.closing) return;
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
      if (this.closing) return;
      this.copiesFailed.set(name, Date.now());
      this.options.log?.warn({ err, storageKey, sort }, 'ordered copy of a dataset failed; sorted pages are read from the snapshot');
    }));
    this.copiesBuilding.set(name, work);
    void work.finally(() => this.copiesBuilding.delete(name));
  }
}

/** The one UINTEGER column of a result as row numbers (no rows, no chunks: then no column either). */
const rowNumbersOf = (result: DuckDBResultReader) => Uint32Array.from((result.getColumns()[0] ?? []) as number[]);

const copyName = (storageKey: string, sort: RecordsSort[]) => `ordered\0${storageKey}\0${JSON.stringify(sort.map((s) => [s.column, s.direction]))}`;

/** A Map that forgets its least recently used entries beyond `max` entries or `maxBytes`. */
class BoundedMap<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private bytes = 0;
  constructor(
    private readonly max: number,
    private readonly maxBytes = Number.MAX_SAFE_INTEGER,
  ) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, bytes = 0) {
    const old = this.map.get(key);
    if (old) this.bytes -= old.bytes;
    this.map.delete(key);
    this.map.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.map) {
      if (this.map.size <= this.max && this.bytes <= this.maxBytes) break;
      this.map.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}

/** A Parquet file's columns with their DuckDB types: preparing (not running) a SELECT * reads only the footer. */
export async function fileColumns(connection: DuckDBConnection, file: string): Promise<ColumnShape[]> {
  const prepared = await connection.prepare(`SELECT * FROM ${parquetScan(file)}`);
  try {
    return Array.from({ length: prepared.columnCount }, (_, i) => ({ name: prepared.columnName(i), type: prepared.columnType(i) }));
  } finally {
    prepared.destroySync();
  }
}
