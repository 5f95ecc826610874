import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBResultReader } from '@duckdb/node-api';
import type { DuckDBPool } from './duckdb-pool';
import { InvalidRecordsQuery, queryIssue } from './errors';
import { toJsonValue, type JsonRecord, type JsonValue } from './json-values';
import { RECORD_ID, type DatasetColumn, type DatasetRef } from './metadata';
import type { ParquetFiles } from './parquet-files';
import { typeName } from './records-query';
import { parquetScan, quoteIdent } from './sql';

import { COMPARE_LIMITS, type CompareShow } from './compare-limits';

export { COMPARE_LIMITS, COMPARE_SHOW, type CompareShow } from './compare-limits';

export interface CompareQuery {
  /** The column that identifies a record in both datasets: unique and never null in each. */
  key: string;
  /** From 1. */
  page?: number;
  pageSize?: number;
  /** Which differences the page lists; `all` lists every added, removed and changed record. */
  show?: CompareShow;
}

export type RowStatus = 'added' | 'removed' | 'changed';

export interface ColumnChange {
  column: string;
  before: JsonValue;
  after: JsonValue;
}

export interface RowDifference {
  status: RowStatus;
  key: JsonValue;
  /** Changed records: each column whose value differs, before → after (columns in both datasets). */
  changes: ColumnChange[];
  /** Added records: the record as it is now; removed ones: as it was. Absent for changed ones. */
  record?: JsonRecord;
}

export interface DatasetComparison {
  schema: {
    added: DatasetColumn[];
    removed: DatasetColumn[];
    typeChanged: { name: string; before: string; after: string }[];
  };
  counts: { added: number; removed: number; changed: number; unchanged: number };
  items: RowDifference[];
  /** Differences of the kind asked for (`show`), over all pages. */
  total: number;
  page: number;
  pageSize: number;
}

interface Column {
  name: string;
  type: string;
}

/**
 * Compares two snapshots record by record, matched by a key column: which columns came, went or
 * changed type, how many records were added, removed, changed or kept, and a page of the
 * differences. `before` is the older state (the dataset compared with), `after` the newer one.
 *
 * All of it is one DuckDB full outer join of the two Parquet files; nothing but the page leaves
 * DuckDB. Values are compared with IS DISTINCT FROM, so NULL against NULL is no change; a column
 * whose type changed is compared by its values' text (10 → 10.0 is a change: it reads differently).
 * `_id` is an identity, not content: it is only compared when it is the key.
 */
export class DatasetComparer {
  constructor(
    private readonly pool: DuckDBPool,
    private readonly files: ParquetFiles,
  ) {}

  async compare(before: DatasetRef, after: DatasetRef, query: CompareQuery): Promise<DatasetComparison> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? COMPARE_LIMITS.defaultPageSize;
    const show = query.show ?? 'all';
    if (!Number.isInteger(page) || page < 1 || page > COMPARE_LIMITS.maxPage) {
      throw new InvalidRecordsQuery([queryIssue('out_of_range', 'server.datasets.badPage', ['page'], { max: COMPARE_LIMITS.maxPage })]);
    }
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > COMPARE_LIMITS.maxPageSize) {
      throw new InvalidRecordsQuery([queryIssue('out_of_range', 'server.datasets.badPageSize', ['page_size'], { max: COMPARE_LIMITS.maxPageSize })]);
    }
    const beforeFile = await this.files.open(before.storageKey);
    try {
      const afterFile = await this.files.open(after.storageKey);
      try {
        return await this.pool.use(async (connection) => {
          const [beforeColumns, afterColumns] = [await columnsOf(connection, beforeFile.path), await columnsOf(connection, afterFile.path)];
          const beforeKey = beforeColumns.find((c) => c.name === query.key);
          const afterKey = afterColumns.find((c) => c.name === query.key);
          if (typeof query.key !== 'string' || !beforeKey || !afterKey) {
            throw new InvalidRecordsQuery([
              queryIssue('unknown_column', 'server.datasets.compareKeyMissing', ['key'], { column: String(query.key).slice(0, 200) }),
            ]);
          }
          const key = quoteIdent(query.key);
          const o = `old_side`;
          const n = `new_side`;
          const scanBefore = parquetScan(beforeFile.path);
          const scanAfter = parquetScan(afterFile.path);

          // A key must pick out one record on each side, or "which record changed" has no answer.
          for (const scan of [scanBefore, scanAfter]) {
            const [[repeated]] = (await run(connection, `SELECT count(*) - count(DISTINCT ${key}) FROM ${scan}`, [])).getRows() as [[bigint]];
            if (Number(repeated) > 0) {
              throw new InvalidRecordsQuery([
                queryIssue('bad_value', 'server.datasets.compareKeyNotUnique', ['key'], { column: query.key, count: Number(repeated) }),
              ]);
            }
          }

          const typeOfBefore = new Map(beforeColumns.map((c) => [c.name, c.type]));
          const typeOfAfter = new Map(afterColumns.map((c) => [c.name, c.type]));
          const schema = {
            added: afterColumns.filter((c) => !typeOfBefore.has(c.name)),
            removed: beforeColumns.filter((c) => !typeOfAfter.has(c.name)),
            typeChanged: afterColumns
              .filter((c) => typeOfBefore.has(c.name) && typeOfBefore.get(c.name) !== c.type)
              .map((c) => ({ name: c.name, before: typeOfBefore.get(c.name)!, after: c.type })),
          };

          const sameKeyType = beforeKey.type === afterKey.type;
          const keyOf = (side: string) => (sameKeyType ? `${side}.${key}` : `CAST(${side}.${key} AS VARCHAR)`);
          const compared = afterColumns.filter((c) => typeOfBefore.has(c.name) && c.name !== query.key && c.name !== RECORD_ID);
          const distinct = compared.map((c) => {
            const q = quoteIdent(c.name);
            return typeOfBefore.get(c.name) === c.type
              ? `(${o}.${q} IS DISTINCT FROM ${n}.${q})`
              : `(CAST(${o}.${q} AS VARCHAR) IS DISTINCT FROM CAST(${n}.${q} AS VARCHAR))`;
          });
          const anyChanged = distinct.length ? distinct.join(' OR ') : 'false';
          // Positional aliases: the two sides share column names, and a name may be anything.
          const selected = [
            ...beforeColumns.map((c, i) => `${o}.${quoteIdent(c.name)} AS b${i}`),
            ...afterColumns.map((c, i) => `${n}.${quoteIdent(c.name)} AS a${i}`),
            ...distinct.map((d, i) => `${d} AS d${i}`),
          ];
          const joined =
            `WITH ${o} AS (SELECT * FROM ${scanBefore}), ${n} AS (SELECT * FROM ${scanAfter}), ` +
            `joined AS (SELECT CASE WHEN ${n}.${key} IS NULL THEN 'removed' WHEN ${o}.${key} IS NULL THEN 'added' ` +
            `WHEN ${anyChanged} THEN 'changed' ELSE 'unchanged' END AS status, coalesce(${keyOf(n)}, ${keyOf(o)}) AS sort_key, ${selected.join(', ')} ` +
            `FROM ${o} FULL OUTER JOIN ${n} ON ${keyOf(o)} = ${keyOf(n)})`;

          const counts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
          for (const [status, count] of (await run(connection, `${joined} SELECT status, count(*) FROM joined GROUP BY status`, [])).getRows() as [
            RowStatus | 'unchanged',
            bigint,
          ][]) {
            counts[status] = Number(count);
          }
          const shown: RowStatus[] = show === 'all' ? ['added', 'removed', 'changed'] : [show];
          const total = shown.reduce((sum, s) => sum + counts[s], 0);
          const offset = (page - 1) * pageSize;
          if (offset >= total) return { schema, counts, items: [], total, page, pageSize };

          const statuses = shown.map((s) => `'${s}'`).join(', ');
          const result = await run(connection, `${joined} SELECT * FROM joined WHERE status IN (${statuses}) ORDER BY sort_key LIMIT $1 OFFSET $2`, [
            BigInt(pageSize),
            BigInt(offset),
          ]);
          const names = result.columnNames();
          const types = result.columnTypes();
          const items = result.getRows().map((row): RowDifference => {
            const value = (name: string) => {
              const at = names.indexOf(name);
              return toJsonValue(row[at], types[at], toJsonValue);
            };
            const status = row[0] as RowStatus;
            const side = (columns: Column[], prefix: string) => Object.fromEntries(columns.map((c, i) => [c.name, value(`${prefix}${i}`)])) as JsonRecord;
            const keyValue = status === 'removed' ? value(`b${beforeColumns.indexOf(beforeKey)}`) : value(`a${afterColumns.indexOf(afterKey)}`);
            if (status === 'added') return { status, key: keyValue, changes: [], record: side(afterColumns, 'a') };
            if (status === 'removed') return { status, key: keyValue, changes: [], record: side(beforeColumns, 'b') };
            const changes = compared.flatMap((c, i) =>
              row[names.indexOf(`d${i}`)]
                ? [{ column: c.name, before: value(`b${beforeColumns.findIndex((b) => b.name === c.name)}`), after: value(`a${afterColumns.indexOf(c)}`) }]
                : [],
            );
            return { status, key: keyValue, changes };
          });
          return { schema, counts, items, total, page, pageSize };
        });
      } finally {
        afterFile.release();
      }
    } finally {
      beforeFile.release();
    }
  }
}

/** Every column and its type, from the footer: preparing (not running) a SELECT * reads only that. */
async function columnsOf(connection: DuckDBConnection, file: string): Promise<Column[]> {
  const prepared = await connection.prepare(`SELECT * FROM ${parquetScan(file)}`);
  try {
    const columns: Column[] = [];
    for (let i = 0; i < prepared.columnCount; i++) columns.push({ name: prepared.columnName(i), type: typeName(prepared.columnType(i)) });
    return columns;
  } finally {
    prepared.destroySync();
  }
}

async function run(connection: DuckDBConnection, sql: string, params: bigint[]): Promise<DuckDBResultReader> {
  let prepared: DuckDBPreparedStatement | null = null;
  try {
    prepared = await connection.prepare(sql);
    params.forEach((value, i) => prepared!.bindBigInt(i + 1, value));
    return await prepared.runAndReadAll();
  } finally {
    prepared?.destroySync();
  }
}
