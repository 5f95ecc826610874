import type { ParamValues } from '../params';
import { columnsParam, expectInputs, findColumn, ID_COLUMN, q, RECORD_ID, requireColumn, resolveParams, sameName, typeCategory, widenTypes } from './columns';
import { paramProblem } from './errors';
import { newColumnName, POS, uniqueNames, withPositions } from './transform';
import type { Column, SqlRunner, Vars } from './types';

// ---------- aggregate ----------

export const AGGREGATE_FUNCTIONS = ['count', 'count_distinct', 'sum', 'avg', 'min', 'max', 'first', 'last'] as const;
type AggregateFunction = (typeof AGGREGATE_FUNCTIONS)[number];

interface Summary {
  column: Column | null;
  fn: AggregateFunction;
  out: Column;
}

const INTEGER_TYPES = /^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?)$/i;

function summaryType(fn: AggregateFunction, column: Column | null): string {
  if (fn === 'count' || fn === 'count_distinct') return 'BIGINT';
  if (fn === 'avg') return column!.type === 'UNKNOWN' ? 'UNKNOWN' : 'DOUBLE';
  if (fn === 'sum') {
    const type = column!.type;
    if (INTEGER_TYPES.test(type)) return 'BIGINT';
    const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/i.exec(type);
    if (decimal) return `DECIMAL(38,${decimal[2]})`;
    return type === 'UNKNOWN' ? 'UNKNOWN' : 'DOUBLE';
  }
  return column!.type;
}

function aggregatePlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  expectInputs(inputs, 1, 1);
  const columns = inputs[0];
  const params = resolveParams('aggregate', stored, vars);
  const groups = columnsParam(params, 'group_by').map((name, i) => requireColumn(columns, name, ['group_by', i]));
  const list = params.aggregations;
  if (!Array.isArray(list) || !list.length || list.length > 100) throw paramProblem(['aggregations'], 'server.steps.badAggregations');
  const summaries: Summary[] = list.map((item: unknown, i): Summary => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw paramProblem(['aggregations', i], 'server.steps.badAggregations');
    const { column: name, function: fn, as } = item as Record<string, unknown>;
    if (typeof fn !== 'string' || !(AGGREGATE_FUNCTIONS as readonly string[]).includes(fn)) {
      throw paramProblem(['aggregations', i, 'function'], 'server.steps.aggregateFunction', {
        name: String(fn ?? ''),
        functions: AGGREGATE_FUNCTIONS.join(', '),
      });
    }
    const f = fn as AggregateFunction;
    let column: Column | null = null;
    if (name === '*') {
      if (f !== 'count') throw paramProblem(['aggregations', i, 'column'], 'server.steps.countStarOnly');
    } else {
      column = requireColumn(columns, name, ['aggregations', i, 'column']);
      const category = typeCategory(column.type);
      if ((f === 'sum' || f === 'avg') && !['number', 'unknown'].includes(category)) {
        throw paramProblem(['aggregations', i, 'column'], 'server.steps.notNumeric', { column: column.name, type: column.type, operation: f });
      }
    }
    const outName = as !== undefined && as !== null ? newColumnName(as, ['aggregations', i, 'as']) : column ? `${f}_${column.name}` : 'count';
    return { column, fn: f, out: { name: outName, type: summaryType(f, column) } };
  });
  const groupsAt = new Map(groups.map((c, i) => [c, ['group_by', i]]));
  const out = [...groups, ...summaries.map((s) => s.out)];
  uniqueNames(out, (c) => groupsAt.get(c) ?? ['aggregations', summaries.findIndex((s) => s.out === c), 'as']);
  return { groups, summaries, out: [ID_COLUMN, ...out] };
}

const summarySql = ({ fn, column }: Summary): string => {
  const c = column ? q(column.name) : '*';
  switch (fn) {
    case 'count':
      return `count(${c})`;
    case 'count_distinct':
      return `count(DISTINCT ${c})`;
    case 'sum':
      return INTEGER_TYPES.test(column!.type) ? `CAST(sum(${c}) AS BIGINT)` : /^DECIMAL/i.test(column!.type) ? `sum(${c})` : `CAST(sum(${c}) AS DOUBLE)`;
    case 'avg':
      return `avg(${c})`;
    case 'min':
    case 'max':
      return `${fn}(${c})`;
    case 'first':
    case 'last':
      return `${fn}(${c} ORDER BY ${POS})`;
  }
};

/**
 * One row per group, ordered by the group columns (nulls last). Its `_id` is made from the group's
 * key values (an MD5 of each value's text with its length, NULL told apart from 'NULL' and ''),
 * written as a UUID: the same group gets the same id in every run, so a summary row can be followed
 * across re-runs. Without group columns the one row of totals has the id of the empty key.
 */
export const aggregateRunner: SqlRunner = {
  stepType: 'aggregate',
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => aggregatePlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { groups, summaries } = aggregatePlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const text = (c: Column) => `CAST(${q(c.name)} AS VARCHAR)`;
    const key = groups.length
      ? groups.map((c) => `CASE WHEN ${q(c.name)} IS NULL THEN '~' ELSE length(${text(c)}) || ':' || ${text(c)} END`).join(` || '|' || `)
      : `''`;
    const hash = q('__stepwise_hash');
    const inner = [`md5(${key}) AS ${hash}`, ...groups.map((c) => q(c.name)), ...summaries.map((s) => `${summarySql(s)} AS ${q(s.out.name)}`)].join(', ');
    const groupBy = groups.length ? ` GROUP BY ${groups.map((c) => q(c.name)).join(', ')}` : '';
    const uuid = `substr(${hash}, 1, 8) || '-' || substr(${hash}, 9, 4) || '-' || substr(${hash}, 13, 4) || '-' || substr(${hash}, 17, 4) || '-' || substr(${hash}, 21, 12)`;
    const orderBy = groups.length ? ` ORDER BY ${groups.map((c) => `${q(c.name)} ASC NULLS LAST`).join(', ')}` : '';
    // Row positions only when first/last need them: numbering rows costs a pass of its own.
    const positioned = summaries.some((s) => s.fn === 'first' || s.fn === 'last');
    const from = positioned ? withPositions(inputs[0].table) : inputs[0].table;
    return {
      sql: `SELECT ${uuid} AS ${q(RECORD_ID)}, * EXCLUDE (${hash}) FROM (SELECT ${inner} FROM ${from}${groupBy})${orderBy}`,
      params: [],
    };
  },
};

// ---------- join ----------

const JOIN_SQL = { inner: 'INNER JOIN', left: 'LEFT JOIN', right: 'RIGHT JOIN', full: 'FULL OUTER JOIN' } as const;

function joinPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  expectInputs(inputs, 2, 2);
  const [left, right] = inputs;
  const params = resolveParams('join', stored, vars);
  const leftOn = columnsParam(params, 'left_on');
  const rightOn = columnsParam(params, 'right_on');
  if (!leftOn.length) throw paramProblem(['left_on'], 'server.params.required');
  if (!rightOn.length) throw paramProblem(['right_on'], 'server.params.required');
  if (leftOn.length !== rightOn.length) throw paramProblem(['right_on'], 'server.params.sameLength', { other: 'left_on', count: leftOn.length });
  const pairs = leftOn.map((name, i) => {
    const l = requireColumn(left, name, ['left_on', i]);
    const r = requireColumn(right, rightOn[i], ['right_on', i]);
    const group = (t: string) => {
      const c = typeCategory(t);
      return c === 'date' || c === 'timestamp' ? 'time' : c;
    };
    if (group(l.type) !== group(r.type) && group(l.type) !== 'unknown' && group(r.type) !== 'unknown') {
      throw paramProblem(['right_on', i], 'server.steps.joinKeyTypes', { left: l.name, leftType: l.type, right: r.name, rightType: r.type });
    }
    return { l, r };
  });
  const how = params.how;
  if (typeof how !== 'string' || !Object.prototype.hasOwnProperty.call(JOIN_SQL, how))
    throw paramProblem(['how'], 'server.params.enum', { values: Object.keys(JOIN_SQL).join(', ') });
  const suffix = params.suffix ?? '';
  if (typeof suffix !== 'string' || suffix.includes('\0')) throw paramProblem(['suffix'], 'server.params.string');
  if (suffix.length > 32) throw paramProblem(['suffix'], 'server.params.maxLength', { limit: 32 });
  const leftCols = left.filter((c) => c.name !== RECORD_ID);
  const taken = new Set(leftCols.map((c) => c.name.toLowerCase()));
  const rightCols = right
    .filter((c) => c.name !== RECORD_ID)
    .map((c) => {
      const name = taken.has(c.name.toLowerCase()) ? `${c.name}${suffix}` : c.name;
      if (taken.has(name.toLowerCase()) || sameName(name, RECORD_ID)) throw paramProblem(['suffix'], 'server.steps.duplicateOutput', { column: name });
      taken.add(name.toLowerCase());
      return { from: c, to: { name, type: c.type } };
    });
  return { pairs, how: how as keyof typeof JOIN_SQL, leftCols, rightCols };
}

/**
 * Every column of the first table, then every column of the second (its key columns too), a name
 * the first already has getting `suffix`. Rows come in the first table's order, then the second's
 * (unmatched rows of the second last). NULL keys match nothing. A row's `_id` is its first-table
 * record's, or the second's when it has none (right and full joins); when a first-table record
 * matches several rows, the writer gives the repeats new ids (datasets README).
 */
export const joinRunner: SqlRunner = {
  stepType: 'join',
  kind: 'sql',
  outputColumns(inputs, params, vars) {
    const { leftCols, rightCols } = joinPlan(inputs, params, vars);
    return [ID_COLUMN, ...leftCols, ...rightCols.map((c) => c.to)];
  },
  toSql(inputs, params, vars) {
    const { pairs, how, leftCols, rightCols } = joinPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const [l, r] = [q('__stepwise_l'), q('__stepwise_r')];
    const [lpos, rpos] = [q('__stepwise_lpos'), q('__stepwise_rpos')];
    const hasId = (i: number) => Boolean(findColumn(inputs[i].columns, RECORD_ID));
    const id = `coalesce(${hasId(0) ? `${l}.${q(RECORD_ID)}` : 'NULL'}, ${hasId(1) ? `${r}.${q(RECORD_ID)}` : 'NULL'})`;
    const list = [
      `${id} AS ${q(RECORD_ID)}`,
      ...leftCols.map((c) => `${l}.${q(c.name)}`),
      ...rightCols.map(({ from, to }) => `${r}.${q(from.name)} AS ${q(to.name)}`),
    ];
    const on = pairs.map((p) => `${l}.${q(p.l.name)} = ${r}.${q(p.r.name)}`).join(' AND ');
    const side = (table: string, pos: string) => `(SELECT *, row_number() OVER () AS ${pos} FROM ${table})`;
    return {
      sql: `SELECT ${list.join(', ')} FROM ${side(inputs[0].table, lpos)} AS ${l} ${JOIN_SQL[how]} ${side(inputs[1].table, rpos)} AS ${r} ON ${on} ORDER BY ${l}.${lpos} ASC NULLS LAST, ${r}.${rpos} ASC NULLS LAST`,
      params: [],
    };
  },
};

// ---------- union ----------

const SOURCE_COLUMN = '_source';
/** Types the union casts to are its own choice (widenTypes) or an input's, kept only if plainly spelt. */
const PLAIN_TYPE = /^[A-Z][A-Z ]*(\(\d+,\s*\d+\))?$/;

function unionPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  expectInputs(inputs, 2, null);
  const params = resolveParams('union', stored, vars);
  const matchBy = params.match_by;
  if (matchBy !== 'name' && matchBy !== 'position') throw paramProblem(['match_by'], 'server.params.enum', { values: 'name, position' });
  if (typeof params.add_source_column !== 'boolean') throw paramProblem(['add_source_column'], 'server.params.boolean');
  const data = inputs.map((cols) => cols.filter((c) => c.name !== RECORD_ID));
  // For each output column, which column of each input feeds it (null: none, left empty).
  const out: { column: Column; from: (Column | null)[] }[] = [];
  if (matchBy === 'name') {
    for (const [i, cols] of data.entries()) {
      for (const c of cols) {
        let slot = out.find((o) => sameName(o.column.name, c.name));
        if (!slot) out.push((slot = { column: { name: c.name, type: c.type }, from: inputs.map(() => null) }));
        else slot.column = { name: slot.column.name, type: widenTypes(slot.column.type, c.type) };
        slot.from[i] = c;
      }
    }
  } else {
    for (const [i, cols] of data.entries()) {
      if (cols.length > data[0].length)
        throw paramProblem(['match_by'], 'server.steps.unionWidth', { input: i + 1, count: cols.length, expected: data[0].length });
    }
    for (const [k, c] of data[0].entries()) {
      const from = data.map((cols) => cols[k] ?? null);
      const type = from.reduce((t, f) => (f ? widenTypes(t, f.type) : t), c.type);
      out.push({ column: { name: c.name, type }, from });
    }
  }
  if (params.add_source_column && out.some((o) => sameName(o.column.name, SOURCE_COLUMN)))
    throw paramProblem(['add_source_column'], 'server.steps.duplicateOutput', { column: SOURCE_COLUMN });
  return { out, addSource: params.add_source_column };
}

/**
 * Rows of the first input, then the second's, and so on, each in its order. Columns line up by
 * name (case-insensitively; first spelling and position win) or by position (the first input's
 * names); a column an input lacks is NULL there. Types widen (widenTypes): integers to the larger,
 * other numbers to DOUBLE, DATE with TIMESTAMP to TIMESTAMP, anything else to text. Every record
 * keeps its `_id`; the same dataset appended twice gets new ids for the repeats (writer).
 * `_source` is the input's number, from 1.
 */
export const unionRunner: SqlRunner = {
  stepType: 'union',
  kind: 'sql',
  outputColumns(inputs, params, vars) {
    const { out, addSource } = unionPlan(inputs, params, vars);
    return [ID_COLUMN, ...out.map((o) => o.column), ...(addSource ? [{ name: SOURCE_COLUMN, type: 'BIGINT' }] : [])];
  },
  toSql(inputs, params, vars) {
    const { out, addSource } = unionPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const [which, pos] = [q('__stepwise_input'), POS];
    const cast = (expr: string, type: string) => (PLAIN_TYPE.test(type) ? `CAST(${expr} AS ${type})` : expr);
    const parts = inputs.map((input, i) => {
      const id = findColumn(input.columns, RECORD_ID) ? q(RECORD_ID) : 'CAST(NULL AS VARCHAR)';
      const list = out.map(({ column, from }) => {
        const source = from[i];
        if (!source) return `${cast('NULL', column.type)} AS ${q(column.name)}`;
        return `${source.type === column.type ? q(source.name) : cast(q(source.name), column.type)} AS ${q(column.name)}`;
      });
      const source = addSource ? [`CAST(${i + 1} AS BIGINT) AS ${q(SOURCE_COLUMN)}`] : [];
      return `SELECT ${[`${id} AS ${q(RECORD_ID)}`, ...list, ...source, `${i} AS ${which}`, `row_number() OVER () AS ${pos}`].join(', ')} FROM ${input.table}`;
    });
    return { sql: `SELECT * EXCLUDE (${which}, ${pos}) FROM (${parts.join(' UNION ALL ')}) ORDER BY ${which}, ${pos}`, params: [] };
  },
};
