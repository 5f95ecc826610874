import type { ParamValues } from '../params';
import { columnsParam, expectInputs, findColumn, ID_COLUMN, q, RECORD_ID, requireColumn, resolveParams, sameName, typeCategory } from './columns';
import { paramProblem } from './errors';
import { checkedExpression } from './expression';
import type { Column, SqlRunner, Vars } from './types';

/**
 * The one-input SQL steps. Each keeps `_id` as it is, so a record keeps its identity through
 * them, and keeps the input's row order unless ordering is its job (sort).
 */

/** Row position in the input, for stable orders and first/last; never in an output. */
export const POS = q('__stepwise_pos');
export const withPositions = (table: string) => `(SELECT *, row_number() OVER () AS ${POS} FROM ${table})`;

const one = (inputs: Column[][]) => {
  expectInputs(inputs, 1, 1);
  return inputs[0];
};

export const selectList = (columns: Column[]) => columns.map((c) => q(c.name)).join(', ');

export function enumParam(params: ParamValues, name: string, options: string[]): string {
  const value = params[name];
  if (typeof value !== 'string' || !options.includes(value)) throw paramProblem([name], 'server.params.enum', { values: options.join(', ') });
  return value;
}

export function integerParam(params: ParamValues, name: string, min: number): number {
  const value = params[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw paramProblem([name], 'server.params.integer');
  if (value < min) throw paramProblem([name], 'server.params.minimum', { limit: min });
  return value;
}

/** Names a person gives an output column: non-empty, at most 128 characters, not the record id. */
export function newColumnName(value: unknown, loc: (string | number)[]): string {
  if (typeof value !== 'string' || !value.trim()) throw paramProblem(loc, 'server.steps.columnName');
  if (value.length > 128 || value.includes('\0')) throw paramProblem(loc, 'server.steps.columnName');
  if (sameName(value, RECORD_ID)) throw paramProblem(loc, 'server.steps.recordIdColumn');
  return value;
}

/** Fails when two output columns would have the same name (DuckDB does not tell them apart by case). */
export function uniqueNames(columns: Column[], loc: (column: Column) => (string | number)[]): Column[] {
  const seen = new Set<string>();
  for (const column of columns) {
    const key = column.name.toLowerCase();
    if (seen.has(key)) throw paramProblem(loc(column), 'server.steps.duplicateOutput', { column: column.name });
    seen.add(key);
  }
  return columns;
}

// ---------- filter ----------

function filterPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('filter', stored, vars);
  const mode = enumParam(params, 'mode', ['keep', 'remove']);
  const condition = checkedExpression(params.condition, 'condition', columns, vars);
  if (!['boolean', 'unknown', 'null'].includes(condition.category))
    throw paramProblem(['condition'], 'server.steps.conditionNotBoolean', { type: condition.type === 'UNKNOWN' ? condition.category : condition.type });
  return { columns, mode, condition };
}

export const filterRunner: SqlRunner = {
  stepType: 'filter',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => filterPlan(inputs, params, vars).columns,
  toSql(inputs, params, vars) {
    const { mode, condition } = filterPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    // A condition that is NULL for a row does not match it: kept by "remove", dropped by "keep".
    const where = mode === 'keep' ? `(${condition.sql}) IS TRUE` : `(${condition.sql}) IS NOT TRUE`;
    return { sql: `SELECT * FROM ${inputs[0].table} WHERE ${where}`, params: condition.params };
  },
};

// ---------- select columns ----------

function selectPlan(inputs: Column[][], stored: ParamValues, vars?: Vars): Column[] {
  const columns = one(inputs);
  const params = resolveParams('select_columns', stored, vars);
  const mode = enumParam(params, 'mode', ['keep', 'drop']);
  const listed = columnsParam(params, 'columns').map((name, i) => requireColumn(columns, name, ['columns', i]));
  if (mode === 'keep') {
    // `_id` always stays, first: it is not a column people pick.
    const kept = listed.filter((c) => c.name !== RECORD_ID);
    uniqueNames(kept, (c) => ['columns', listed.indexOf(c)]);
    return [findColumn(columns, RECORD_ID) ?? ID_COLUMN, ...kept].filter((c, i, all) => all.indexOf(c) === i);
  }
  const dropIdAt = listed.findIndex((c) => c.name === RECORD_ID);
  if (dropIdAt >= 0) throw paramProblem(['columns', dropIdAt], 'server.steps.recordIdColumn');
  return columns.filter((c) => !listed.includes(c));
}

export const selectColumnsRunner: SqlRunner = {
  stepType: 'select_columns',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: selectPlan,
  toSql(inputs, params, vars) {
    const out = selectPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    return { sql: `SELECT ${selectList(out)} FROM ${inputs[0].table}`, params: [] };
  },
};

// ---------- rename columns ----------

function renamePlan(inputs: Column[][], stored: ParamValues, vars?: Vars): { from: Column; to: Column }[] {
  const columns = one(inputs);
  const params = resolveParams('rename_columns', stored, vars);
  const mapping = params.mapping;
  if (!mapping || typeof mapping !== 'object' || Array.isArray(mapping)) throw paramProblem(['mapping'], 'server.steps.badMapping');
  const renames = new Map<Column, string>();
  for (const [old, to] of Object.entries(mapping as Record<string, unknown>)) {
    const column = requireColumn(columns, old, ['mapping', old]);
    if (column.name === RECORD_ID) throw paramProblem(['mapping', old], 'server.steps.recordIdColumn');
    if (renames.has(column)) throw paramProblem(['mapping', old], 'server.steps.duplicateOutput', { column: column.name });
    renames.set(column, newColumnName(to, ['mapping', old]));
  }
  const out = columns.map((from) => ({ from, to: { name: renames.get(from) ?? from.name, type: from.type } }));
  uniqueNames(
    out.map((o) => o.to),
    (c) => ['mapping', Object.keys(mapping).find((old) => (mapping as Record<string, unknown>)[old] === c.name) ?? c.name],
  );
  return out;
}

export const renameColumnsRunner: SqlRunner = {
  stepType: 'rename_columns',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => renamePlan(inputs, params, vars).map((o) => o.to),
  toSql(inputs, params, vars) {
    const list = renamePlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    ).map(({ from, to }) => (from.name === to.name ? q(from.name) : `${q(from.name)} AS ${q(to.name)}`));
    return { sql: `SELECT ${list.join(', ')} FROM ${inputs[0].table}`, params: [] };
  },
};

// ---------- add column ----------

/**
 * The new column goes last; when the input already has a column of that name (compared as DuckDB
 * does, without regard to case), the formula's values replace it where it stands, under the
 * spelling given. `_id` cannot be replaced.
 */
function addColumnPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('add_column', stored, vars);
  const name = newColumnName(params.new_column, ['new_column']);
  const formula = checkedExpression(params.expression, 'expression', columns, vars);
  const added: Column = { name, type: formula.type };
  const replaced = findColumn(columns, name);
  const out = replaced ? columns.map((c) => (c === replaced ? added : c)) : [...columns, added];
  return { out, added, formula };
}

export const addColumnRunner: SqlRunner = {
  stepType: 'add_column',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => addColumnPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { out, added, formula } = addColumnPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const list = out.map((c) => (c === added ? `${formula.sql} AS ${q(c.name)}` : q(c.name)));
    return { sql: `SELECT ${list.join(', ')} FROM ${inputs[0].table}`, params: formula.params };
  },
};

// ---------- sort ----------

function sortPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('sort', stored, vars);
  const by = columnsParam(params, 'columns');
  if (!by.length) throw paramProblem(['columns'], 'server.params.required');
  return {
    columns,
    by: by.map((name, i) => requireColumn(columns, name, ['columns', i])),
    direction: enumParam(params, 'direction', ['ascending', 'descending']) === 'ascending' ? 'ASC' : 'DESC',
    nulls: enumParam(params, 'nulls', ['first', 'last']) === 'first' ? 'NULLS FIRST' : 'NULLS LAST',
  };
}

export const sortRunner: SqlRunner = {
  stepType: 'sort',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => sortPlan(inputs, params, vars).columns,
  toSql(inputs, params, vars) {
    const { by, direction, nulls } = sortPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    // Ties keep the input's order: the sort is stable.
    const order = [...by.map((c) => `${q(c.name)} ${direction} ${nulls}`), POS].join(', ');
    return { sql: `SELECT * EXCLUDE (${POS}) FROM ${withPositions(inputs[0].table)} ORDER BY ${order}`, params: [] };
  },
};

// ---------- limit ----------

function limitPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('limit', stored, vars);
  return { columns, count: integerParam(params, 'count', 1), offset: integerParam(params, 'offset', 0) };
}

export const limitRunner: SqlRunner = {
  stepType: 'limit',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => limitPlan(inputs, params, vars).columns,
  toSql(inputs, params, vars) {
    const { count, offset } = limitPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    // Safe integers checked above, so they may be written as digits. DuckDB keeps insertion order
    // (duckdb-pool.ts), so a plain scan's LIMIT takes the first rows and stops reading there.
    return { sql: `SELECT * FROM ${inputs[0].table} LIMIT ${count} OFFSET ${offset}`, params: [] };
  },
};

// ---------- deduplicate ----------

function dedupePlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams('deduplicate', stored, vars);
  const listed = columnsParam(params, 'columns').map((name, i) => requireColumn(columns, name, ['columns', i]));
  const keys = listed.length ? listed : columns.filter((c) => c.name !== RECORD_ID);
  const keep = enumParam(params, 'keep', ['first', 'last']);
  if (typeof params.ignore_case !== 'boolean') throw paramProblem(['ignore_case'], 'server.params.boolean');
  return { columns, keys, keep, ignoreCase: params.ignore_case };
}

export const deduplicateRunner: SqlRunner = {
  stepType: 'deduplicate',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => dedupePlan(inputs, params, vars).columns,
  toSql(inputs, params, vars) {
    const { keys, keep, ignoreCase } = dedupePlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    // Text compared without case and surrounding spaces when asked; NULLs equal each other, as in GROUP BY.
    const partition = keys.map((c) => (ignoreCase && typeCategory(c.type) === 'text' ? `lower(trim(CAST(${q(c.name)} AS VARCHAR)))` : q(c.name)));
    const over = `${partition.length ? `PARTITION BY ${partition.join(', ')} ` : ''}ORDER BY ${POS} ${keep === 'first' ? 'ASC' : 'DESC'}`;
    return {
      sql: `SELECT * EXCLUDE (${POS}) FROM ${withPositions(inputs[0].table)} QUALIFY row_number() OVER (${over}) = 1 ORDER BY ${POS}`,
      params: [],
    };
  },
};
