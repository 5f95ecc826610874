import {
  arrayFromArrayValue,
  arrayFromListValue,
  createDuckDBValueConverter,
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  DuckDBUnionValue,
  fromVariantValue,
  objectArrayFromMapValue,
  objectFromStructValue,
  type DuckDBType,
  type DuckDBValue,
  type DuckDBValueConverter,
} from '@duckdb/node-api';

/** A value as the records API answers it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One record: column name → value. */
export type JsonRecord = Record<string, JsonValue>;

/*
 * How DuckDB values become JSON (every answer of the records API goes through here):
 *
 * | DuckDB type                                   | JSON                                              |
 * |-----------------------------------------------|---------------------------------------------------|
 * | NULL (any type)                               | null                                              |
 * | BOOLEAN                                       | true / false                                      |
 * | TINYINT … INTEGER, UTINYINT … UINTEGER        | number                                            |
 * | BIGINT, UBIGINT, HUGEINT, UHUGEINT            | number when within ±(2^53−1), else a string of    |
 * |                                               | the exact digits ("9007199254740993")             |
 * | FLOAT, DOUBLE                                 | number; NaN and ±Infinity (not JSON) as the       |
 * |                                               | strings "NaN", "Infinity", "-Infinity"            |
 * | DECIMAL(p,s)                                  | always a string with its scale ("12.500"): exact, |
 * |                                               | and the same JSON type whatever the value         |
 * | VARCHAR, UUID, ENUM                           | string                                            |
 * | JSON                                          | the parsed value (object, array, …)               |
 * | DATE                                          | "2024-01-15"                                      |
 * | TIMESTAMP, TIMESTAMP_S/_MS/_NS                | "2024-01-15T12:34:56.789" (no zone: none stored)  |
 * | TIMESTAMP WITH TIME ZONE                      | "2024-01-15T12:34:56.789Z" (UTC)                  |
 * |   (±infinity dates/timestamps)                | "infinity" / "-infinity"                          |
 * | TIME, TIME_NS, TIME WITH TIME ZONE, INTERVAL  | DuckDB's text ("12:00:01.5", "1 year 3 days")     |
 * | BLOB                                          | base64 string                                     |
 * | BIT                                           | string of 0s and 1s                               |
 * | LIST, ARRAY                                   | array of converted items                          |
 * | STRUCT                                        | object of converted fields                        |
 * | MAP                                           | array of {key, value} (keys need not be strings)  |
 * | UNION                                         | the converted value of its member                 |
 * | anything else (GEOMETRY, BIGNUM…)             | DuckDB's text                                     |
 */

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function wholeNumber(value: DuckDBValue): JsonValue {
  const n = value as bigint | number;
  if (typeof n === 'number') return n;
  return n <= MAX_SAFE && n >= -MAX_SAFE ? Number(n) : n.toString();
}

function floating(value: DuckDBValue): JsonValue {
  const n = value as number;
  return Number.isFinite(n) ? n : String(n);
}

const text = (value: DuckDBValue): JsonValue => String(value);

function json(value: DuckDBValue, type: DuckDBType): JsonValue {
  if (type.alias !== 'JSON') return String(value);
  try {
    return JSON.parse(String(value)) as JsonValue;
  } catch {
    return String(value);
  }
}

function date(value: DuckDBValue): JsonValue {
  const d = value as DuckDBDateValue;
  return d.isFinite ? d.toString() : d.days > 0 ? 'infinity' : '-infinity';
}

/** DuckDB writes "2024-01-15 12:34:56.789"; ISO 8601 puts a T between date and time. */
function timestamp(value: DuckDBValue): JsonValue {
  const t = value as { isFinite: boolean; toString(): string; micros?: bigint };
  if (!t.isFinite) return String(t).includes('-infinity') ? '-infinity' : 'infinity';
  return t.toString().replace(' ', 'T');
}

/** In UTC whatever the process's zone: the same micros read as a zone-less timestamp. */
function timestampTz(value: DuckDBValue): JsonValue {
  const t = value as DuckDBTimestampTZValue;
  if (!t.isFinite) return t.micros > 0n ? 'infinity' : '-infinity';
  return `${new DuckDBTimestampValue(t.micros).toString().replace(' ', 'T')}Z`;
}

const blob = (value: DuckDBValue): JsonValue => Buffer.from((value as DuckDBBlobValue).bytes).toString('base64');

function union(value: DuckDBValue, type: DuckDBType, convert: DuckDBValueConverter<JsonValue>): JsonValue {
  const u = value as DuckDBUnionValue;
  if (type.typeId !== DuckDBTypeId.UNION) return String(value);
  const member = type.memberTypes[type.memberTags.indexOf(u.tag)];
  return member && u.value !== null ? convert(u.value, member, convert) : null;
}

const unsupported = (value: DuckDBValue): JsonValue => String(value);

export const toJsonValue: DuckDBValueConverter<JsonValue> = createDuckDBValueConverter<JsonValue>({
  [DuckDBTypeId.INVALID]: unsupported,
  [DuckDBTypeId.BOOLEAN]: (v) => v as boolean,
  [DuckDBTypeId.TINYINT]: wholeNumber,
  [DuckDBTypeId.SMALLINT]: wholeNumber,
  [DuckDBTypeId.INTEGER]: wholeNumber,
  [DuckDBTypeId.BIGINT]: wholeNumber,
  [DuckDBTypeId.UTINYINT]: wholeNumber,
  [DuckDBTypeId.USMALLINT]: wholeNumber,
  [DuckDBTypeId.UINTEGER]: wholeNumber,
  [DuckDBTypeId.UBIGINT]: wholeNumber,
  [DuckDBTypeId.HUGEINT]: wholeNumber,
  [DuckDBTypeId.UHUGEINT]: wholeNumber,
  [DuckDBTypeId.FLOAT]: floating,
  [DuckDBTypeId.DOUBLE]: floating,
  [DuckDBTypeId.DECIMAL]: text,
  [DuckDBTypeId.VARCHAR]: json,
  [DuckDBTypeId.UUID]: text,
  [DuckDBTypeId.ENUM]: text,
  [DuckDBTypeId.DATE]: date,
  [DuckDBTypeId.TIMESTAMP]: timestamp,
  [DuckDBTypeId.TIMESTAMP_S]: timestamp,
  [DuckDBTypeId.TIMESTAMP_MS]: timestamp,
  [DuckDBTypeId.TIMESTAMP_NS]: timestamp,
  [DuckDBTypeId.TIMESTAMP_TZ]: timestampTz,
  [DuckDBTypeId.TIME]: text,
  [DuckDBTypeId.TIME_NS]: text,
  [DuckDBTypeId.TIME_TZ]: text,
  [DuckDBTypeId.INTERVAL]: text,
  [DuckDBTypeId.BLOB]: blob,
  [DuckDBTypeId.BIT]: text,
  [DuckDBTypeId.LIST]: arrayFromListValue,
  [DuckDBTypeId.ARRAY]: arrayFromArrayValue,
  [DuckDBTypeId.STRUCT]: objectFromStructValue,
  [DuckDBTypeId.MAP]: objectArrayFromMapValue as DuckDBValueConverter<JsonValue>,
  [DuckDBTypeId.UNION]: union,
  [DuckDBTypeId.VARIANT]: fromVariantValue,
  [DuckDBTypeId.GEOMETRY]: text,
  [DuckDBTypeId.BIGNUM]: text,
  [DuckDBTypeId.SQLNULL]: () => null,
  [DuckDBTypeId.ANY]: unsupported,
  [DuckDBTypeId.STRING_LITERAL]: text,
  [DuckDBTypeId.INTEGER_LITERAL]: text,
});

/**
 * A result's rows as JSON records. The result's column types, not its vectors', are used: only they
 * still say JSON for JSON text. Object.fromEntries defines own properties, so a column called
 * __proto__ stays a column.
 */
export function jsonRecords(names: readonly string[], types: readonly DuckDBType[], rows: readonly (readonly DuckDBValue[])[]): JsonRecord[] {
  return rows.map((row) => Object.fromEntries(row.map((value, i) => [names[i], toJsonValue(value, types[i], toJsonValue)])));
}
