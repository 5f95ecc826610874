/**
 * The functions and types an expression may use: the one place to widen or narrow the language.
 *
 * Why an allow-list and not "anything DuckDB has": DuckDB's catalogue also reads files and URLs
 * (read_csv, read_parquet, glob, httpfs), reads the environment and settings (getenv,
 * current_setting), changes state (nextval, setseed), and has table, aggregate and window functions
 * that change how many rows there are. An expression runs inside a query the engine writes, per
 * row, so only scalar functions that compute a value from their arguments and nothing else may
 * appear. Every name below is one: no I/O, no side effects, no access to anything but its
 * arguments. Their cost is bounded by the size of their arguments (and by the run's memory limit).
 *
 * `min`/`max` are the numbers of arguments DuckDB accepts (`max: null`: any number), checked while
 * parsing so a wrong count is reported where the user typed it rather than when the workflow runs.
 */
export interface FunctionSpec {
  min: number;
  max: number | null;
  /** Written without parentheses in SQL (`current_date`), as the SQL standard has it. */
  bare?: true;
}

const fn = (min: number, max: number | null = min): FunctionSpec => ({ min, max });

export const FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
  // Text: pure string manipulation of their arguments.
  lower: fn(1),
  upper: fn(1),
  trim: fn(1, 2),
  ltrim: fn(1, 2),
  rtrim: fn(1, 2),
  length: fn(1),
  substr: fn(2, 3),
  substring: fn(2, 3),
  left: fn(2),
  right: fn(2),
  lpad: fn(3),
  rpad: fn(3),
  replace: fn(3),
  reverse: fn(1),
  concat: fn(1, null),
  concat_ws: fn(2, null),
  split_part: fn(3),
  strpos: fn(2),
  instr: fn(2),
  starts_with: fn(2),
  ends_with: fn(2),
  contains: fn(2),
  strip_accents: fn(1),
  md5: fn(1),
  sha256: fn(1),
  // Regular expressions: DuckDB uses RE2, which runs in time linear in the input (no catastrophic
  // backtracking), so a user's pattern cannot stall a run.
  regexp_matches: fn(2, 3),
  regexp_replace: fn(3, 4),
  regexp_extract: fn(2, 4),
  // Missing values: choose among their arguments.
  coalesce: fn(1, null),
  ifnull: fn(2),
  nullif: fn(2),
  // Numbers: arithmetic on their arguments.
  abs: fn(1),
  round: fn(1, 2),
  floor: fn(1),
  ceil: fn(1),
  ceiling: fn(1),
  trunc: fn(1, 2),
  sign: fn(1),
  sqrt: fn(1),
  power: fn(2),
  pow: fn(2),
  exp: fn(1),
  ln: fn(1),
  log: fn(1, 2),
  log10: fn(1),
  greatest: fn(1, null),
  least: fn(1, null),
  // Dates and times: calendar arithmetic and formatting of their arguments.
  strftime: fn(2),
  strptime: fn(2),
  date_trunc: fn(2),
  date_part: fn(2),
  date_diff: fn(3),
  make_date: fn(3),
  to_timestamp: fn(1),
  epoch: fn(1),
  year: fn(1),
  quarter: fn(1),
  month: fn(1),
  week: fn(1),
  day: fn(1),
  dayofweek: fn(1),
  dayofyear: fn(1),
  hour: fn(1),
  minute: fn(1),
  second: fn(1),
  // The clock: read the time the query runs at, nothing else.
  now: fn(0),
  today: fn(0),
  current_date: { min: 0, max: 0, bare: true },
  current_timestamp: { min: 0, max: 0, bare: true },
};

export const isAllowedFunction = (name: string): boolean => Object.prototype.hasOwnProperty.call(FUNCTIONS, name);

/**
 * Types CAST may convert to: DuckDB's scalar types, under their common spellings. Left out: nested
 * types (LIST, STRUCT, MAP, UNION), ENUM, BLOB/BIT and extension types (JSON), which no step
 * needs and which bring their own syntax.
 */
export const TYPE_ALIASES: Readonly<Record<string, string>> = {
  BOOLEAN: 'BOOLEAN',
  BOOL: 'BOOLEAN',
  LOGICAL: 'BOOLEAN',
  TINYINT: 'TINYINT',
  INT1: 'TINYINT',
  SMALLINT: 'SMALLINT',
  INT2: 'SMALLINT',
  SHORT: 'SMALLINT',
  INTEGER: 'INTEGER',
  INT: 'INTEGER',
  INT4: 'INTEGER',
  SIGNED: 'INTEGER',
  BIGINT: 'BIGINT',
  INT8: 'BIGINT',
  LONG: 'BIGINT',
  HUGEINT: 'HUGEINT',
  UTINYINT: 'UTINYINT',
  USMALLINT: 'USMALLINT',
  UINTEGER: 'UINTEGER',
  UBIGINT: 'UBIGINT',
  FLOAT: 'FLOAT',
  FLOAT4: 'FLOAT',
  REAL: 'FLOAT',
  DOUBLE: 'DOUBLE',
  FLOAT8: 'DOUBLE',
  DECIMAL: 'DECIMAL',
  NUMERIC: 'DECIMAL',
  VARCHAR: 'VARCHAR',
  TEXT: 'VARCHAR',
  STRING: 'VARCHAR',
  CHAR: 'VARCHAR',
  BPCHAR: 'VARCHAR',
  DATE: 'DATE',
  TIME: 'TIME',
  TIMESTAMP: 'TIMESTAMP',
  DATETIME: 'TIMESTAMP',
  TIMESTAMPTZ: 'TIMESTAMPTZ',
  INTERVAL: 'INTERVAL',
  UUID: 'UUID',
};

/** The canonical names, for messages that list what may be used. */
export const TYPE_NAMES: readonly string[] = [...new Set(Object.values(TYPE_ALIASES))];

/** DECIMAL's precision as DuckDB bounds it. */
export const MAX_DECIMAL_PRECISION = 38;

/** A cast's target: a canonical type name, with precision and scale for DECIMAL. */
export type TypeName = { name: string; precision?: number; scale?: number };
