import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import { InvalidRecordsQuery, queryIssue, type QueryIssue } from './errors';
import { RECORD_ID } from './metadata';
import { FILTER_OPS, RECORDS_LIMITS, type FilterOp, type RecordsFilter, type RecordsSort } from './records-limits';

export { FILTER_OPS, type FilterOp, type RecordsFilter, type RecordsSort };
import { quoteIdent } from './sql';

export interface RecordsQuery {
  /** From 1. */
  page?: number;
  pageSize?: number;
  /** Applied in order; ties end in file order. Nulls come last either way. */
  sort?: RecordsSort[];
  /** All must hold. */
  filters?: RecordsFilter[];
  /** Which columns to answer (`_id` always comes first); all when absent or empty. */
  columns?: string[];
}

export { RECORDS_LIMITS } from './records-limits';

/** A column of the dataset as DuckDB reads it from the Parquet file. */
export interface ColumnShape {
  name: string;
  type: DuckDBType;
}

/** A records query checked against the dataset's columns, as SQL pieces with their parameters. */
export interface CheckedQuery {
  page: number;
  pageSize: number;
  offset: number;
  /** Quoted select list, `_id` first. */
  select: string;
  /** The SQL condition over `$1`… (`whereParams[0]` is `$1`), or null without filters. */
  where: string | null;
  whereParams: string[];
  /** ORDER BY keys without the file-order tie-break, or null when unsorted. */
  orderBy: string | null;
  sort: RecordsSort[];
  /** The filters in a canonical form: the same key means the same rows (caches the total). */
  filterKey: string;
}

/*
 * Families of column types, which decide what a filter value must look like and which operators
 * apply. Values are bound as text and cast by DuckDB to the column's exact type
 * (`CAST($1 AS DECIMAL(18,3))`), so a comparison is made in the column's type (no string ordering
 * of numbers) and DuckDB can still skip row groups by their min/max.
 */
type Family = 'integer' | 'float' | 'decimal' | 'boolean' | 'text' | 'enum' | 'uuid' | 'date' | 'timestamp' | 'time' | 'other';

const integerRanges: Partial<Record<DuckDBTypeId, [bigint, bigint]>> = {
  [DuckDBTypeId.TINYINT]: [-(2n ** 7n), 2n ** 7n - 1n],
  [DuckDBTypeId.SMALLINT]: [-(2n ** 15n), 2n ** 15n - 1n],
  [DuckDBTypeId.INTEGER]: [-(2n ** 31n), 2n ** 31n - 1n],
  [DuckDBTypeId.BIGINT]: [-(2n ** 63n), 2n ** 63n - 1n],
  [DuckDBTypeId.HUGEINT]: [-(2n ** 127n), 2n ** 127n - 1n],
  [DuckDBTypeId.UTINYINT]: [0n, 2n ** 8n - 1n],
  [DuckDBTypeId.USMALLINT]: [0n, 2n ** 16n - 1n],
  [DuckDBTypeId.UINTEGER]: [0n, 2n ** 32n - 1n],
  [DuckDBTypeId.UBIGINT]: [0n, 2n ** 64n - 1n],
  [DuckDBTypeId.UHUGEINT]: [0n, 2n ** 128n - 1n],
};

function familyOf(type: DuckDBType): Family {
  if (integerRanges[type.typeId]) return 'integer';
  switch (type.typeId) {
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return 'float';
    case DuckDBTypeId.DECIMAL:
      return 'decimal';
    case DuckDBTypeId.BOOLEAN:
      return 'boolean';
    case DuckDBTypeId.VARCHAR:
      return 'text';
    case DuckDBTypeId.ENUM:
      return 'enum';
    case DuckDBTypeId.UUID:
      return 'uuid';
    case DuckDBTypeId.DATE:
      return 'date';
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return 'timestamp';
    case DuckDBTypeId.TIME:
    case DuckDBTypeId.TIME_NS:
    case DuckDBTypeId.TIME_TZ:
      return 'time';
    default:
      // LIST, STRUCT, MAP, BLOB, INTERVAL…: no literal a person types compares with them.
      return 'other';
  }
}

/** The name people read in messages: the column's DuckDB type (JSON for JSON text). */
export const typeName = (type: DuckDBType) => type.alias ?? type.toString();

/**
 * The type in a CAST. Only scalar families get here, whose spelling is DuckDB's fixed words and
 * numbers (`DECIMAL(18,3)`, `TIMESTAMP WITH TIME ZONE`); checked anyway, since it goes into SQL.
 */
function castType(type: DuckDBType): string {
  const text = type.toString();
  if (!/^[A-Z][A-Z0-9_]*( [A-Z]+)*(\(\d+(,\d+)?\))?$/.test(text)) throw new Error(`Unexpected type in a filter: ${text}`);
  return text;
}

const numberText = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const integerText = /^[+-]?\d{1,40}$/;
const uuidText = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const dateText = /^(\d{4})-(\d{2})-(\d{2})$/;
const timestampText = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const timeText = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function realDate(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
}
const realTime = (h = '0', m = '0', s = '0') => Number(h) < 24 && Number(m) < 60 && Number(s) < 60;

/** The value as the text DuckDB will cast, or null when it is not a value of the column's type. */
function valueText(family: Family, type: DuckDBType, value: unknown): string | null {
  switch (family) {
    case 'integer': {
      let n: bigint;
      if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
      else if (typeof value === 'string' && integerText.test(value)) n = BigInt(value);
      else return null;
      const [min, max] = integerRanges[type.typeId]!;
      return n >= min && n <= max ? n.toString() : null;
    }
    case 'float':
    case 'decimal':
      if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
      return typeof value === 'string' && numberText.test(value) ? value : null;
    case 'boolean':
      if (typeof value === 'boolean') return String(value);
      return value === 'true' || value === 'false' ? value : null;
    case 'text':
    case 'enum':
      return typeof value === 'string' ? value : null;
    case 'uuid':
      return typeof value === 'string' && uuidText.test(value) ? value.toLowerCase() : null;
    case 'date': {
      const m = typeof value === 'string' ? dateText.exec(value) : null;
      return m && realDate(m[1], m[2], m[3]) ? (value as string) : null;
    }
    case 'timestamp': {
      const m = typeof value === 'string' ? timestampText.exec(value) : null;
      return m && realDate(m[1], m[2], m[3]) && realTime(m[4], m[5], m[6]) ? (value as string) : null;
    }
    case 'time': {
      const m = typeof value === 'string' ? timeText.exec(value) : null;
      return m && realTime(m[1], m[2], m[3]) ? (value as string) : null;
    }
    default:
      return null;
  }
}

const comparisons: Partial<Record<FilterOp, string>> = { '=': '=', '!=': 'IS DISTINCT FROM', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

/** Text with nothing that has a case (digits, punctuation, CJK): matching it ignores case anyway. */
const caseless = (text: string) => text.toLowerCase() === text && text.toUpperCase() === text;

/** A value shown in a message: short, one line. */
const shown = (value: unknown) => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/**
 * Checks a records query against the dataset's columns and turns it into SQL pieces. Every
 * problem is collected (not just the first), each at its place in the query, so a person fixing a
 * filter form sees all of them at once. Column names reach SQL only after they matched a column
 * of the dataset, and quoted; values only as bound parameters.
 */
export function checkRecordsQuery(columns: readonly ColumnShape[], query: RecordsQuery): CheckedQuery {
  const issues: QueryIssue[] = [];
  const byName = new Map(columns.map((c) => [c.name, c]));
  const column = (name: unknown, loc: (string | number)[]): ColumnShape | null => {
    const found = typeof name === 'string' ? byName.get(name) : undefined;
    if (!found) issues.push(queryIssue('unknown_column', 'server.datasets.unknownColumn', loc, { column: shown(name) }));
    return found ?? null;
  };
  const wholeNumberIn = (value: unknown, min: number, max: number, fallback: number, loc: string, key: string): number => {
    if (value === undefined) return fallback;
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
    issues.push(queryIssue('out_of_range', key, [loc], { max }));
    return fallback;
  };

  const page = wholeNumberIn(query.page, 1, RECORDS_LIMITS.maxPage, 1, 'page', 'server.datasets.badPage');
  const pageSize = wholeNumberIn(query.pageSize, 1, RECORDS_LIMITS.maxPageSize, RECORDS_LIMITS.defaultPageSize, 'page_size', 'server.datasets.badPageSize');

  // Columns: `_id` first, each asked-for column once, in the order asked.
  const selected: string[] = [RECORD_ID];
  const asked = query.columns ?? [];
  if (asked.length > RECORDS_LIMITS.maxColumns)
    issues.push(queryIssue('out_of_range', 'server.datasets.tooMany', ['columns'], { max: RECORDS_LIMITS.maxColumns }));
  else if (!asked.length) selected.push(...columns.map((c) => c.name).filter((name) => name !== RECORD_ID));
  else
    asked.forEach((name, i) => {
      const found = column(name, ['columns', i]);
      if (found && !selected.includes(found.name)) selected.push(found.name);
    });

  const sort: RecordsSort[] = [];
  const sortKeys = query.sort ?? [];
  if (sortKeys.length > RECORDS_LIMITS.maxSortKeys)
    issues.push(queryIssue('out_of_range', 'server.datasets.tooMany', ['sort'], { max: RECORDS_LIMITS.maxSortKeys }));
  else
    sortKeys.forEach((key, i) => {
      const found = column(key?.column, ['sort', i, 'column']);
      const direction = key?.direction ?? 'asc';
      if (direction !== 'asc' && direction !== 'desc')
        issues.push(queryIssue('bad_value', 'server.datasets.badDirection', ['sort', i, 'direction'], { value: shown(direction) }));
      else if (found) sort.push({ column: found.name, direction });
    });

  const conditions: string[] = [];
  const whereParams: string[] = [];
  const canonical: unknown[] = [];
  const bind = (text: string) => {
    whereParams.push(text);
    return `$${whereParams.length}`;
  };
  const filters = query.filters ?? [];
  if (filters.length > RECORDS_LIMITS.maxFilters)
    issues.push(queryIssue('out_of_range', 'server.datasets.tooMany', ['filters'], { max: RECORDS_LIMITS.maxFilters }));
  else
    filters.forEach((filter, i) => {
      const found = column(filter?.column, ['filters', i, 'column']);
      const op = filter?.op;
      if (!FILTER_OPS.includes(op)) {
        issues.push(queryIssue('unsupported_operator', 'server.datasets.unknownOperator', ['filters', i, 'op'], { op: shown(op) }));
        return;
      }
      if (!found) return;
      const col = quoteIdent(found.name);
      if (op === 'is_null' || op === 'is_not_null') {
        conditions.push(`${col} IS ${op === 'is_null' ? '' : 'NOT '}NULL`);
        canonical.push([found.name, op]);
        return;
      }
      const family = familyOf(found.type);
      const textual = family === 'text' || family === 'enum' || family === 'uuid';
      if (family === 'other' || ((op === 'contains' || op === 'starts_with') && !textual)) {
        issues.push(
          queryIssue('unsupported_operator', 'server.datasets.operatorNotSupported', ['filters', i, 'op'], {
            column: found.name,
            type: typeName(found.type),
            op,
          }),
        );
        return;
      }
      // One value checked and turned into the text DuckDB casts; null when it does not fit.
      const check = (value: unknown, loc: (string | number)[]): string | null => {
        if (typeof value === 'string' && value.length > RECORDS_LIMITS.maxValueLength) {
          issues.push(queryIssue('out_of_range', 'server.datasets.valueTooLong', loc, { max: RECORDS_LIMITS.maxValueLength }));
          return null;
        }
        const text = op === 'contains' || op === 'starts_with' ? (typeof value === 'string' ? value : null) : valueText(family, found.type, value);
        if (text === null)
          issues.push(queryIssue('bad_value', 'server.datasets.badValue', loc, { value: shown(value), column: found.name, type: typeName(found.type) }));
        return text;
      };
      // Enums and UUIDs compare as their text; other scalars in their own type.
      const left = family === 'enum' || (textual && (op === 'contains' || op === 'starts_with') && family !== 'text') ? `CAST(${col} AS VARCHAR)` : col;
      const param = (text: string) => (family === 'text' || family === 'enum' ? bind(text) : `CAST(${bind(text)} AS ${castType(found.type)})`);

      if (op === 'in') {
        const values = filter.value;
        if (!Array.isArray(values) || values.length === 0 || values.length > RECORDS_LIMITS.maxInValues) {
          issues.push(queryIssue('out_of_range', 'server.datasets.inValues', ['filters', i, 'value'], { max: RECORDS_LIMITS.maxInValues }));
          return;
        }
        const texts = values.map((v, j) => check(v, ['filters', i, 'value', j]));
        if (texts.some((t) => t === null)) return;
        conditions.push(`${left} IN (${(texts as string[]).map(param).join(', ')})`);
        canonical.push([found.name, op, texts]);
        return;
      }
      const text = check(filter.value, ['filters', i, 'value']);
      if (text === null) return;
      if (op === 'contains' || op === 'starts_with') {
        // Case-insensitive and Unicode-aware (Ä matches ä) by lower() on both sides, and literal
        // (no wildcards: % and _ are just characters). lower() of every row costs as much as the
        // search itself, so text without letters (an order number) skips it: same answer, half
        // the time.
        const fn = op === 'contains' ? 'contains' : 'starts_with';
        conditions.push(caseless(text) ? `${fn}(${left}, ${bind(text)})` : `${fn}(lower(${left}), lower(${bind(text)}))`);
      } else {
        conditions.push(`${left} ${comparisons[op]} ${param(text)}`);
      }
      canonical.push([found.name, op, text]);
    });

  if (issues.length) throw new InvalidRecordsQuery(issues);
  return {
    page,
    pageSize,
    offset: (page - 1) * pageSize,
    select: selected.map(quoteIdent).join(', '),
    where: conditions.length ? conditions.map((c) => `(${c})`).join(' AND ') : null,
    whereParams,
    orderBy: sort.length ? sort.map((s) => `${quoteIdent(s.column)} ${s.direction === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`).join(', ') : null,
    sort,
    filterKey: JSON.stringify(canonical),
  };
}
