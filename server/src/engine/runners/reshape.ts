import type { ParamValues } from '../params';
import { columnsParam, expectInputs, findColumn, ID_COLUMN, q, RECORD_ID, requireColumn, resolveParams, typeCategory } from './columns';
import { paramProblem } from './errors';
import { enumParam, integerParam, newColumnName, POS, uniqueNames, withPositions } from './transform';
import type { Column, SqlParam, SqlRunner, Vars } from './types';

/**
 * Set-based reshaping steps (issue 9): types, gaps, samples, wide/long, text into parts. Like the
 * steps in transform.ts they keep `_id` and the input's order unless reshaping is their job; a
 * step that fans one record out into several keeps its `_id` on the first and lets the writer give
 * the others new ids (datasets README), as join does.
 */

type Loc = (string | number)[];

const one = (inputs: Column[][]) => {
  expectInputs(inputs, 1, 1);
  return inputs[0];
};

/** Longest JSON list a setting may hold (casts, fills, paths, groups). */
const MAX_ITEMS = 200;

/** A `json` param holding a list of objects: 1 to `max` of them, each an object. */
function objectList(params: ParamValues, name: string, max = MAX_ITEMS): Record<string, unknown>[] {
  const value = params[name];
  if (!Array.isArray(value) || !value.length || value.length > max) throw paramProblem([name], 'server.steps.badList', { limit: max });
  return value.map((item: unknown, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw paramProblem([name, i], 'server.steps.badList', { limit: max });
    return item as Record<string, unknown>;
  });
}

function booleanParam(params: ParamValues, name: string): boolean {
  if (typeof params[name] !== 'boolean') throw paramProblem([name], 'server.params.boolean');
  return params[name] as boolean;
}

function textParam(params: ParamValues, name: string, min: number, max: number): string {
  const value = params[name];
  if (typeof value !== 'string' || value.includes('\0')) throw paramProblem([name], 'server.params.string');
  if (value.length < min) throw paramProblem([name], 'server.params.required');
  if (value.length > max) throw paramProblem([name], 'server.params.maxLength', { limit: max });
  return value;
}

/** A data column (not `_id`) a param names. */
function dataColumn(columns: Column[], name: unknown, loc: Loc): Column {
  const column = requireColumn(columns, name, loc);
  if (column.name === RECORD_ID) throw paramProblem(loc, 'server.steps.recordIdColumn');
  return column;
}

/** New columns go after the input's; none may clash with an input column or each other. */
function appended(columns: Column[], added: { column: Column; loc: Loc }[]): Column[] {
  const out = [...columns, ...added.map((a) => a.column)];
  uniqueNames(out, (c) => added.find((a) => a.column === c)?.loc ?? []);
  return out;
}

/** Makes one output expression per column: the input's columns with some replaced in place. */
const listWith = (columns: Column[], replaced: Map<Column, string>) => columns.map((c) => (replaced.has(c) ? `${replaced.get(c)} AS ${q(c.name)}` : q(c.name)));

// ---------- cast columns ----------

/** What a person picks → the DuckDB type written. Decimals keep 4 places unless told otherwise. */
export const CAST_TYPES: Record<string, (scale?: number) => string> = {
  text: () => 'VARCHAR',
  integer: () => 'BIGINT',
  number: () => 'DOUBLE',
  decimal: (scale = 4) => `DECIMAL(18,${scale})`,
  boolean: () => 'BOOLEAN',
  date: () => 'DATE',
  timestamp: () => 'TIMESTAMP',
  json: () => 'JSON',
};

function castPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('cast_columns', stored, vars);
  const onError = enumParam(params, 'on_error', ['fail', 'null']);
  const casts = new Map<Column, string>();
  objectList(params, 'casts').forEach((item, i) => {
    const column = dataColumn(columns, item.column, ['casts', i, 'column']);
    if (casts.has(column)) throw paramProblem(['casts', i, 'column'], 'server.params.duplicateColumn', { column: column.name });
    const type = item.type;
    if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(CAST_TYPES, type)) {
      throw paramProblem(['casts', i, 'type'], 'server.steps.castType', { type: String(type ?? ''), types: Object.keys(CAST_TYPES).join(', ') });
    }
    let scale: number | undefined;
    if (item.scale !== undefined && item.scale !== null) {
      if (type !== 'decimal' || typeof item.scale !== 'number' || !Number.isInteger(item.scale) || item.scale < 0 || item.scale > 18) {
        throw paramProblem(['casts', i, 'scale'], 'server.steps.decimalScale');
      }
      scale = item.scale;
    }
    casts.set(column, CAST_TYPES[type](scale));
  });
  return { columns, casts, onError, out: columns.map((c) => (casts.has(c) ? { name: c.name, type: casts.get(c)! } : c)) };
}

/**
 * Each listed column converted in place. A value that does not convert fails the step with
 * DuckDB's reason (`fail`) or becomes NULL (`null`, TRY_CAST). NULL stays NULL.
 */
export const castColumnsRunner: SqlRunner = {
  stepType: 'cast_columns',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => castPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { columns, casts, onError } = castPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const fn = onError === 'null' ? 'TRY_CAST' : 'CAST';
    const list = listWith(columns, new Map([...casts].map(([c, type]) => [c, `${fn}(${q(c.name)} AS ${type})`])));
    return { sql: `SELECT ${list.join(', ')} FROM ${inputs[0].table}`, params: [] };
  },
};

// ---------- fill nulls ----------

/** Whether a JSON value may stand for a value of the column's type (then bound and cast by DuckDB). */
function fillValueFits(value: unknown, type: string): string | null {
  switch (typeCategory(type)) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false';
    case 'text':
    case 'date':
    case 'timestamp':
    case 'time':
    case 'uuid':
      return typeof value === 'string' && value.length <= 10_000 ? null : 'text';
    default:
      return 'nothing';
  }
}

const PLAIN_TYPE = /^[A-Z][A-Z ]*(\(\d+,\s*\d+\))?$/;

function fillPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('fill_nulls', stored, vars);
  const fills = new Map<Column, { method: 'value' | 'forward' | 'backward'; value?: SqlParam }>();
  objectList(params, 'fills').forEach((item, i) => {
    const column = dataColumn(columns, item.column, ['fills', i, 'column']);
    if (fills.has(column)) throw paramProblem(['fills', i, 'column'], 'server.params.duplicateColumn', { column: column.name });
    const method = item.method ?? 'value';
    if (method !== 'value' && method !== 'forward' && method !== 'backward')
      throw paramProblem(['fills', i, 'method'], 'server.params.enum', { values: 'value, forward, backward' });
    if (method !== 'value') return fills.set(column, { method });
    const expected = fillValueFits(item.value, column.type);
    if (expected === 'nothing' || !PLAIN_TYPE.test(column.type))
      throw paramProblem(['fills', i, 'column'], 'server.steps.fillType', { column: column.name, type: column.type });
    if (expected) throw paramProblem(['fills', i, 'value'], 'server.steps.fillValueType', { column: column.name, type: column.type });
    fills.set(column, { method, value: item.value as SqlParam });
  });
  return { columns, fills };
}

/**
 * NULLs of each listed column replaced by a value (given as JSON of the column's kind, bound and
 * converted to the column's type), by the last non-NULL value above (forward) or the next one
 * below (backward), in input order. Leading (forward) or trailing (backward) NULLs stay NULL.
 */
export const fillNullsRunner: SqlRunner = {
  stepType: 'fill_nulls',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => fillPlan(inputs, params, vars).columns,
  toSql(inputs, params, vars) {
    const { columns, fills } = fillPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const bound: SqlParam[] = [];
    const replaced = new Map<Column, string>();
    for (const [column, fill] of fills) {
      const c = q(column.name);
      if (fill.method === 'value') {
        bound.push(fill.value!);
        replaced.set(column, `coalesce(${c}, CAST($${bound.length} AS ${column.type}))`);
      } else if (fill.method === 'forward') {
        replaced.set(column, `last_value(${c} IGNORE NULLS) OVER (ORDER BY ${POS} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`);
      } else {
        replaced.set(column, `first_value(${c} IGNORE NULLS) OVER (ORDER BY ${POS} ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)`);
      }
    }
    return { sql: `SELECT ${listWith(columns, replaced).join(', ')} FROM ${withPositions(inputs[0].table)} ORDER BY ${POS}`, params: bound };
  },
};

// ---------- sample ----------

function samplePlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('sample', stored, vars);
  const method = enumParam(params, 'method', ['random', 'first', 'every_nth']);
  const size = enumParam(params, 'size', ['rows', 'percent']);
  const rows = integerParam(params, 'rows', 1);
  const percent = params.percent;
  if (typeof percent !== 'number' || !Number.isFinite(percent)) throw paramProblem(['percent'], 'server.params.number');
  if (percent <= 0) throw paramProblem(['percent'], 'server.params.minimum', { limit: 0 });
  if (percent > 100) throw paramProblem(['percent'], 'server.params.maximum', { limit: 100 });
  const every = integerParam(params, 'every', 1);
  const seed = integerParam(params, 'seed', 0);
  return { columns, method, size, rows, percent, every, seed };
}

/**
 * Some rows, in input order, each keeping its `_id`. `random` ranks rows by a hash of their
 * position and the seed, so the same seed over the same input picks the same rows in every run;
 * `first` takes the top; `every_nth` takes rows 1, 1+n, 1+2n… How many: `rows`, or `percent` of
 * the input rounded to the nearest row (every_nth ignores both).
 */
export const sampleRunner: SqlRunner = {
  stepType: 'sample',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => samplePlan(inputs, params, vars).columns,
  toSql(inputs, params, vars) {
    const { method, size, rows, percent, every, seed } = samplePlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const from = `${withPositions(inputs[0].table)}`;
    if (method === 'every_nth') {
      return { sql: `SELECT * EXCLUDE (${POS}) FROM ${from} WHERE (${POS} - 1) % $1 = 0 ORDER BY ${POS}`, params: [every] };
    }
    const rank = method === 'random' ? `row_number() OVER (ORDER BY hash(${POS}, CAST($1 AS BIGINT)), ${POS})` : POS;
    const bound: SqlParam[] = method === 'random' ? [seed] : [];
    bound.push(size === 'rows' ? rows : percent);
    const n = `$${bound.length}`;
    const limit = size === 'rows' ? n : `round(count(*) OVER () * CAST(${n} AS DOUBLE) / 100)`;
    return { sql: `SELECT * EXCLUDE (${POS}) FROM ${from} QUALIFY ${rank} <= ${limit} ORDER BY ${POS}`, params: bound };
  },
};

// ---------- pivot ----------

export const PIVOT_FUNCTIONS = ['sum', 'count', 'avg', 'min', 'max', 'first'] as const;
const MAX_PIVOT_VALUES = 100;

function pivotPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('pivot', stored, vars);
  const index = columnsParam(params, 'index').map((name, i) => dataColumn(columns, name, ['index', i]));
  const pivotColumn = dataColumn(columns, params.pivot_column, ['pivot_column']);
  const valueColumn = dataColumn(columns, params.value_column, ['value_column']);
  const fn = enumParam(params, 'function', [...PIVOT_FUNCTIONS]) as (typeof PIVOT_FUNCTIONS)[number];
  if ((fn === 'sum' || fn === 'avg') && !['number', 'unknown'].includes(typeCategory(valueColumn.type))) {
    throw paramProblem(['value_column'], 'server.steps.notNumeric', { column: valueColumn.name, type: valueColumn.type, operation: fn });
  }
  const values = params.values;
  if (!Array.isArray(values) || !values.length || values.length > MAX_PIVOT_VALUES)
    throw paramProblem(['values'], 'server.steps.pivotValues', { limit: MAX_PIVOT_VALUES });
  const texts = values.map((v: unknown, i) => {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      throw paramProblem(['values', i], 'server.steps.pivotValues', { limit: MAX_PIVOT_VALUES });
    return newColumnName(String(v), ['values', i]);
  });
  const type = fn === 'count' ? 'BIGINT' : fn === 'avg' ? 'DOUBLE' : fn === 'sum' ? sumType(valueColumn.type) : valueColumn.type;
  const valueColumns = texts.map((name, i) => ({ column: { name, type }, loc: ['values', i] as Loc }));
  const out = [...index, ...valueColumns.map((v) => v.column)];
  uniqueNames(out, (c) => valueColumns.find((v) => v.column === c)?.loc ?? ['index', index.indexOf(c)]);
  if (index.includes(pivotColumn) || index.includes(valueColumn)) throw paramProblem(['index'], 'server.steps.pivotIndex');
  return { index, pivotColumn, valueColumn, fn, texts, out: [ID_COLUMN, ...out] };
}

/** As aggregate's sums: integers BIGINT (Parquet has no HUGEINT), decimals DECIMAL(38,s), else DOUBLE. */
const sumType = (type: string) =>
  /^U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?$/i.test(type)
    ? 'BIGINT'
    : /^DECIMAL\((\d+),\s*(\d+)\)$/i.test(type)
      ? type.replace(/^DECIMAL\(\d+/i, 'DECIMAL(38')
      : type === 'UNKNOWN'
        ? 'UNKNOWN'
        : 'DOUBLE';

/**
 * One row per distinct combination of the index columns; one column per listed value of the pivot
 * column (compared as text), holding the summary of the value column over that group's rows with
 * that value (NULL where there are none; count: 0). Rows whose pivot value is not listed count
 * nowhere. The columns must be listed (at most 100) so the step's columns are known before it runs.
 * `_id` comes from the group key as aggregate's does.
 */
export const pivotRunner: SqlRunner = {
  stepType: 'pivot',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => pivotPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { index, pivotColumn, valueColumn, fn, texts, out } = pivotPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const v = q(valueColumn.name);
    const p = `CAST(${q(pivotColumn.name)} AS VARCHAR)`;
    const summaries = texts.map((_, i) => {
      const filter = `FILTER (WHERE ${p} = $${i + 1})`;
      const type = out[index.length + 1 + i].type;
      const cast = type === 'UNKNOWN' ? (e: string) => e : (e: string) => `CAST(${e} AS ${type})`;
      if (fn === 'first') return `first(${v} ORDER BY ${POS}) ${filter}`;
      if (fn === 'count') return `count(${v}) ${filter}`;
      return cast(`${fn}(${v}) ${filter}`);
    });
    const text = (c: Column) => `CAST(${q(c.name)} AS VARCHAR)`;
    const key = index.length
      ? index.map((c) => `CASE WHEN ${q(c.name)} IS NULL THEN '~' ELSE length(${text(c)}) || ':' || ${text(c)} END`).join(` || '|' || `)
      : `''`;
    const hash = q('__stepwise_hash');
    const inner = [`md5(${key}) AS ${hash}`, ...index.map((c) => q(c.name)), ...summaries.map((s, i) => `${s} AS ${q(texts[i])}`)].join(', ');
    const groupBy = index.length ? ` GROUP BY ${index.map((c) => q(c.name)).join(', ')}` : '';
    const uuid = `substr(${hash}, 1, 8) || '-' || substr(${hash}, 9, 4) || '-' || substr(${hash}, 13, 4) || '-' || substr(${hash}, 17, 4) || '-' || substr(${hash}, 21, 12)`;
    const orderBy = index.length ? ` ORDER BY ${index.map((c) => `${q(c.name)} ASC NULLS LAST`).join(', ')}` : '';
    return {
      sql: `SELECT ${uuid} AS ${q(RECORD_ID)}, * EXCLUDE (${hash}) FROM (SELECT ${inner} FROM ${withPositions(inputs[0].table)}${groupBy})${orderBy}`,
      params: texts,
    };
  },
};

// ---------- unpivot ----------

/** The one type a set of columns' values can share, or null when numbers, text, dates… are mixed. */
function sharedType(types: string[]): string | null {
  if (types.every((t) => t === types[0])) return types[0];
  if (types.every((t) => typeCategory(t) === 'number')) return types.every((t) => /^U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?$/i.test(t)) ? 'BIGINT' : 'DOUBLE';
  if (types.every((t) => ['date', 'timestamp'].includes(typeCategory(t)))) return 'TIMESTAMP';
  return null;
}

function unpivotPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('unpivot', stored, vars);
  const listed = columnsParam(params, 'columns').map((name, i) => dataColumn(columns, name, ['columns', i]));
  if (!listed.length) throw paramProblem(['columns'], 'server.params.required');
  if (listed.length > 500) throw paramProblem(['columns'], 'server.params.maximum', { limit: 500 });
  listed.forEach((c, i) => {
    if (listed.indexOf(c) !== i) throw paramProblem(['columns', i], 'server.params.duplicateColumn', { column: c.name });
  });
  const asText = booleanParam(params, 'as_text');
  const nameColumn = newColumnName(params.name_column, ['name_column']);
  const valueColumn = newColumnName(params.value_column, ['value_column']);
  // A type only DuckDB knows yet (a formula upstream) passes every check, as elsewhere; DuckDB unifies.
  let type = asText ? 'VARCHAR' : listed.some((c) => c.type === 'UNKNOWN') ? 'UNKNOWN' : sharedType(listed.map((c) => c.type));
  if (!type) {
    const other = listed.find((c) => sharedType([listed[0].type, c.type]) === null)!;
    throw paramProblem(['columns', listed.indexOf(other)], 'server.steps.unpivotTypes', {
      column: listed[0].name,
      type: listed[0].type,
      other: other.name,
      otherType: other.type,
    });
  }
  // A nested or unusual type is kept only when every column has it (no CAST to it is written).
  if (type !== 'UNKNOWN' && !PLAIN_TYPE.test(type) && listed.some((c) => c.type !== type)) type = 'VARCHAR';
  const kept = columns.filter((c) => !listed.includes(c));
  const out = appended(kept, [
    { column: { name: nameColumn, type: 'VARCHAR' }, loc: ['name_column'] },
    { column: { name: valueColumn, type }, loc: ['value_column'] },
  ]);
  return { listed, kept, out, nameColumn, valueColumn, type };
}

/**
 * Each input row becomes one row per listed column (NULL values too), in input order then the
 * listed order: the other columns, then the column's name and its value. Values share one type:
 * the same type stays, integers widen to BIGINT, other numbers DOUBLE, dates and timestamps
 * TIMESTAMP; any other mix is refused unless `as_text`. The first row of each record keeps its
 * `_id`; the others get new ids from the writer.
 */
export const unpivotRunner: SqlRunner = {
  stepType: 'unpivot',
  kind: 'sql',
  outputColumns: (inputs, params, vars) => unpivotPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { listed, kept, nameColumn, valueColumn, type } = unpivotPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const which = q('__stepwise_which');
    const parts = listed.map((c, i) => {
      const value = c.type === type || type === 'UNKNOWN' ? q(c.name) : `CAST(${q(c.name)} AS ${type})`;
      return `SELECT ${[...kept.map((k) => q(k.name)), `CAST($${i + 1} AS VARCHAR) AS ${q(nameColumn)}`, `${value} AS ${q(valueColumn)}`, POS, `${i} AS ${which}`].join(', ')} FROM ${withPositions(inputs[0].table)}`;
    });
    return { sql: `SELECT * EXCLUDE (${POS}, ${which}) FROM (${parts.join(' UNION ALL ')}) ORDER BY ${POS}, ${which}`, params: listed.map((c) => c.name) };
  },
};

// ---------- split to rows ----------

function splitPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('split_to_rows', stored, vars);
  const column = dataColumn(columns, params.column, ['column']);
  if (!['text', 'unknown'].includes(typeCategory(column.type)))
    throw paramProblem(['column'], 'server.steps.notText', { column: column.name, type: column.type, operation: 'split' });
  const delimiter = textParam(params, 'delimiter', 1, 100);
  const trim = booleanParam(params, 'trim');
  const dropEmpty = booleanParam(params, 'drop_empty');
  const position = newColumnName(params.position_column, ['position_column']);
  const split: Column = { name: column.name, type: 'VARCHAR' };
  const out = appended(
    columns.map((c) => (c === column ? split : c)),
    [{ column: { name: position, type: 'BIGINT' }, loc: ['position_column'] }],
  );
  return { columns, column, delimiter, trim, dropEmpty, position, out };
}

/**
 * One row per part of the text column split at the delimiter (plain text, not a pattern), the
 * part replacing the text where it stands, its position (from 1, counting kept parts) last. Parts
 * are trimmed and empty ones dropped when asked; a row with no part left disappears; NULL text
 * gives one row with NULL part and position. The first part keeps the record's `_id`, the others
 * get new ids from the writer.
 */
export const splitToRowsRunner: SqlRunner = {
  stepType: 'split_to_rows',
  kind: 'sql',
  outputColumns: (inputs, params, vars) => splitPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { columns, column, delimiter, trim, dropEmpty, position } = splitPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const [part, at] = [q('__stepwise_part'), q('__stepwise_at')];
    const c = q(column.name);
    const parts = `CASE WHEN ${c} IS NULL THEN [NULL] ELSE string_split(CAST(${c} AS VARCHAR), $1) END`;
    const exploded = `SELECT *, unnest(${trim ? `list_transform(${parts}, x -> trim(x))` : parts}) AS ${part}, unnest(range(1, len(${parts}) + 1)) AS ${at} FROM ${withPositions(inputs[0].table)}`;
    const where = dropEmpty ? ` WHERE ${part} IS NULL OR ${part} <> ''` : '';
    const list = columns.map((k) => (k === column ? `${part} AS ${c}` : q(k.name)));
    const pos = `CASE WHEN ${part} IS NULL AND ${c} IS NULL THEN NULL ELSE row_number() OVER (PARTITION BY ${POS} ORDER BY ${at}) END`;
    return {
      sql: `SELECT ${[...list, `CAST(${pos} AS BIGINT) AS ${q(position)}`].join(', ')} FROM (${exploded})${where} ORDER BY ${POS}, ${at}`,
      params: [delimiter],
    };
  },
};

// ---------- regex extract ----------

const MAX_PATTERN = 1000;

/**
 * The named groups of an RE2 pattern, `(?P<name>…)` or `(?<name>…)`, by name → group number:
 * capturing groups are counted as RE2 does, left to right by their opening parenthesis, skipping
 * escaped characters, character classes and non-capturing `(?…)` groups.
 */
export function namedGroups(pattern: string): Map<string, number> {
  const names = new Map<string, number>();
  let count = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') i++;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
    } else if (ch === '(') {
      const name = /^\?P?<([A-Za-z_]\w*)>/.exec(pattern.slice(i + 1));
      if (pattern[i + 1] !== '?' || name) count++;
      if (name && !names.has(name[1])) names.set(name[1], count);
    }
  }
  return names;
}

function regexPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('regex_extract', stored, vars);
  const column = dataColumn(columns, params.column, ['column']);
  if (!['text', 'unknown'].includes(typeCategory(column.type)))
    throw paramProblem(['column'], 'server.steps.notText', { column: column.name, type: column.type, operation: 'regex' });
  const pattern = textParam(params, 'pattern', 1, MAX_PATTERN);
  const mode = enumParam(params, 'mode', ['extract', 'matches']);
  let added: { column: Column; group: number; loc: Loc }[];
  if (mode === 'matches') {
    added = [{ column: { name: newColumnName(params.new_column, ['new_column']), type: 'BOOLEAN' }, group: -1, loc: ['new_column'] }];
  } else {
    const named = namedGroups(pattern);
    added = objectList(params, 'groups', 10).map((item, i) => {
      let group = item.group;
      if (typeof group === 'string') {
        if (!named.has(group))
          throw paramProblem(['groups', i, 'group'], 'server.steps.regexGroupName', {
            name: group.slice(0, 100),
            names: [...named.keys()].join(', ') || '(none)',
          });
        group = named.get(group)!;
      }
      if (typeof group !== 'number' || !Number.isInteger(group) || group < 0 || group > 9)
        throw paramProblem(['groups', i, 'group'], 'server.steps.regexGroup');
      return { column: { name: newColumnName(item.as, ['groups', i, 'as']), type: 'VARCHAR' }, group, loc: ['groups', i, 'as'] };
    });
  }
  return { columns, column, pattern, added, out: appended(columns, added) };
}

/**
 * Reads a text column with a regular expression (RE2, as DuckDB has it; at most 1000 characters,
 * bound as a parameter): each listed group (0 = the whole match, 1–9 the parentheses in order) to
 * a new text column, NULL when the text does not match (a group that took part in no match is
 * empty text); or one true/false column saying whether the text contains a match (NULL for NULL
 * text). A pattern that does not compile is refused at `pattern` with RE2's reason (paramFailure).
 */
export const regexExtractRunner: SqlRunner = {
  stepType: 'regex_extract',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => regexPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { columns, column, pattern, added } = regexPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const c = `CAST(${q(column.name)} AS VARCHAR)`;
    const list = added.map(({ column: out, group }) =>
      group < 0
        ? `regexp_matches(${c}, $1) AS ${q(out.name)}`
        : `CASE WHEN regexp_matches(${c}, $1) THEN regexp_extract(${c}, $1, ${group}) END AS ${q(out.name)}`,
    );
    return { sql: `SELECT ${[...columns.map((k) => q(k.name)), ...list].join(', ')} FROM ${inputs[0].table}`, params: [pattern] };
  },
  // Reading text with a pattern fails only when RE2 cannot compile it ("Invalid Input Error: missing ): (").
  paramFailure: (reason) =>
    reason.startsWith('Invalid Input Error: ')
      ? paramProblem(['pattern'], 'server.steps.badPattern', { reason: reason.slice('Invalid Input Error: '.length) })
      : null,
};

// ---------- parse json ----------

const JSON_TYPES: Record<string, string> = { text: 'VARCHAR', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN', json: 'JSON' };
/** `$`, then `.key` (letters, digits, `_`, or "quoted") and `[n]` steps; `*` wildcards are not allowed (one value per row). */
const JSON_PATH = /^\$(\.([A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*|"[^"\\]{1,200}")|\[\d{1,6}\])*$/;

function jsonPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('parse_json', stored, vars);
  const column = dataColumn(columns, params.column, ['column']);
  if (!['text', 'unknown'].includes(typeCategory(column.type)))
    throw paramProblem(['column'], 'server.steps.notText', { column: column.name, type: column.type, operation: 'JSON' });
  const onInvalid = enumParam(params, 'on_invalid', ['null', 'fail']);
  const paths = objectList(params, 'paths', 100).map((item, i) => {
    const path = item.path;
    if (typeof path !== 'string' || path.length > 500 || !JSON_PATH.test(path))
      throw paramProblem(['paths', i, 'path'], 'server.steps.jsonPath', { path: String(path ?? '').slice(0, 100) });
    const type = item.type ?? 'text';
    if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(JSON_TYPES, type))
      throw paramProblem(['paths', i, 'type'], 'server.steps.castType', { type: String(type), types: Object.keys(JSON_TYPES).join(', ') });
    return { path, column: { name: newColumnName(item.as, ['paths', i, 'as']), type: JSON_TYPES[type] }, loc: ['paths', i, 'as'] as Loc };
  });
  return { columns, column, onInvalid, paths, out: appended(columns, paths) };
}

/**
 * Each path's value in the text column's JSON to a new column of the asked type: NULL where the
 * path leads nowhere (or to JSON null) or the text is NULL. A value that does not convert to the
 * type, and text that is not JSON, become NULL (`null`) or fail the step with DuckDB's reason
 * (`fail`). Paths and their keys are bound parameters.
 */
export const parseJsonRunner: SqlRunner = {
  stepType: 'parse_json',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => jsonPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { columns, column, onInvalid, paths } = jsonPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const c = `CAST(${q(column.name)} AS VARCHAR)`;
    const cast = onInvalid === 'null' ? 'TRY_CAST' : 'CAST';
    const list = paths.map(({ column: out }, i) => {
      const read = out.type === 'JSON' ? `json_extract(${c}, $${i + 1})` : `json_extract_string(${c}, $${i + 1})`;
      const value = `${cast}(${read} AS ${out.type})`;
      return `${onInvalid === 'null' ? `CASE WHEN json_valid(${c}) THEN ${value} END` : value} AS ${q(out.name)}`;
    });
    return { sql: `SELECT ${[...columns.map((k) => q(k.name)), ...list].join(', ')} FROM ${inputs[0].table}`, params: paths.map((p) => p.path) };
  },
};

// ---------- date parts ----------

/** Each part: its SQL over a DATE/TIMESTAMP expression, and the type it gives. */
export const DATE_PARTS: Record<string, { sql: (d: string) => string; type: string }> = {
  year: { sql: (d) => `year(${d})`, type: 'BIGINT' },
  quarter: { sql: (d) => `quarter(${d})`, type: 'BIGINT' },
  month: { sql: (d) => `month(${d})`, type: 'BIGINT' },
  day: { sql: (d) => `day(${d})`, type: 'BIGINT' },
  weekday: { sql: (d) => `isodow(${d})`, type: 'BIGINT' },
  week: { sql: (d) => `weekofyear(${d})`, type: 'BIGINT' },
  day_of_year: { sql: (d) => `dayofyear(${d})`, type: 'BIGINT' },
  hour: { sql: (d) => `hour(${d})`, type: 'BIGINT' },
  minute: { sql: (d) => `minute(${d})`, type: 'BIGINT' },
  iso_date: { sql: (d) => `strftime(CAST(${d} AS DATE), '%Y-%m-%d')`, type: 'VARCHAR' },
};

function datePartsPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('date_parts', stored, vars);
  const column = dataColumn(columns, params.column, ['column']);
  const format = typeof params.format === 'string' ? params.format : '';
  if (format.length > 100 || format.includes('\0')) throw paramProblem(['format'], 'server.params.maxLength', { limit: 100 });
  const category = typeCategory(column.type);
  if (!['date', 'timestamp', 'unknown'].includes(category) && !(category === 'text' && format)) {
    throw paramProblem(['column'], 'server.steps.notDate', { column: column.name, type: column.type });
  }
  const list = params.parts;
  if (!Array.isArray(list) || !list.length || list.length > 20) throw paramProblem(['parts'], 'server.steps.badList', { limit: 20 });
  const prefix = `${column.name}_`;
  const parts = list.map((part: unknown, i) => {
    if (typeof part !== 'string' || !Object.prototype.hasOwnProperty.call(DATE_PARTS, part)) {
      throw paramProblem(['parts', i], 'server.steps.datePart', { name: String(part ?? ''), parts: Object.keys(DATE_PARTS).join(', ') });
    }
    return { part, column: { name: `${prefix}${part}`, type: DATE_PARTS[part].type }, loc: ['parts', i] as Loc };
  });
  return { columns, column, format: category === 'text' ? format : '', parts, out: appended(columns, parts) };
}

/**
 * Parts of a date or timestamp column as new columns named `column_part` (year, quarter, month,
 * day, weekday 1 = Monday … 7 = Sunday, ISO week, day of year, hour, minute, the date as
 * YYYY-MM-DD text). A text column is read with the given strptime format (e.g. %d/%m/%Y; bound),
 * text that does not fit giving NULL parts; without a format it is refused, naming the column.
 */
export const datePartsRunner: SqlRunner = {
  stepType: 'date_parts',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => datePartsPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { columns, column, format, parts } = datePartsPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const d = format ? `try_strptime(${q(column.name)}, $1)` : q(column.name);
    const list = parts.map((p) => `${DATE_PARTS[p.part].sql(d)} AS ${q(p.column.name)}`);
    return { sql: `SELECT ${[...columns.map((k) => q(k.name)), ...list].join(', ')} FROM ${inputs[0].table}`, params: format ? [format] : [] };
  },
};

// ---------- reorder columns ----------

function reorderPlan(inputs: Column[][], stored: ParamValues, vars?: Vars): Column[] {
  const columns = one(inputs);
  const params = resolveParams('reorder_columns', stored, vars);
  const listed = columnsParam(params, 'columns').map((name, i) => requireColumn(columns, name, ['columns', i]));
  if (!listed.length) throw paramProblem(['columns'], 'server.params.required');
  listed.forEach((c, i) => {
    if (listed.indexOf(c) !== i) throw paramProblem(['columns', i], 'server.params.duplicateColumn', { column: c.name });
  });
  const id = findColumn(columns, RECORD_ID);
  const first = listed.filter((c) => c !== id);
  return [...(id ? [id] : []), ...first, ...columns.filter((c) => c !== id && !first.includes(c))];
}

/** `_id` first, then the listed columns in the given order, then the others as they were. Rows untouched. */
export const reorderColumnsRunner: SqlRunner = {
  stepType: 'reorder_columns',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: reorderPlan,
  toSql(inputs, params, vars) {
    const out = reorderPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    return { sql: `SELECT ${out.map((c) => q(c.name)).join(', ')} FROM ${inputs[0].table}`, params: [] };
  },
};

export const reshapeRunners: SqlRunner[] = [
  castColumnsRunner,
  fillNullsRunner,
  sampleRunner,
  pivotRunner,
  unpivotRunner,
  splitToRowsRunner,
  regexExtractRunner,
  parseJsonRunner,
  datePartsRunner,
  reorderColumnsRunner,
];
