import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import {
  columnsParam,
  expectInputs,
  ID_COLUMN,
  q,
  RECORD_ID,
  requireColumn,
  resolveParams,
  typeCategory,
  newColumnName,
  uniqueNames,
} from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { POS, withPositions } from '../sql-steps/row-positions';

export const AGGREGATE_FUNCTIONS = ['count', 'count_distinct', 'sum', 'avg', 'min', 'max', 'first', 'last'] as const;

const description: StepTypeDescription = {
  id: 'aggregate',
  name: 'Group and summarise',
  description:
    'Group rows by one or more columns and summarise each group: count, sum, average, minimum, maximum or number of distinct values, like a pivot table or SQL GROUP BY, e.g. the number of orders per country or total sales per month. Without group columns, summarises the whole table into one row of totals.',
  category: 'transform',
  tags: ['aggregate', 'group', 'summary', 'statistics'],
  params: [
    {
      name: 'group_by',
      type: 'columns',
      label: 'Group by',
      help: 'One result row per distinct combination of these columns. Leave empty for a single row of totals.',
      required: false,
      default: [],
    },
    {
      name: 'aggregations',
      type: 'json',
      label: 'Summaries',
      help: 'A JSON list of {"column", "function", "as"}; function is one of count, count_distinct, sum, avg, min, max, first, last (sum and avg need a number column). Use "*" as the column to count rows. "as" names the result column; without it the name is function_column, e.g. sum_amount.',
      required: true,
      default: [{ column: '*', function: 'count', as: 'count' }],
      fields: [
        { name: 'column', kind: 'column', label: 'Column', also: ['*'], required: true },
        { name: 'function', kind: 'enum', label: 'Function', options: [...AGGREGATE_FUNCTIONS], required: true },
        { name: 'as', kind: 'text', label: 'Result column', required: false },
      ],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '分组汇总',
      description:
        '按一列或多列给行分组，并对每组做汇总统计：计数、求和、平均值、最小值、最大值或不同值的个数，类似数据透视表或 SQL 的 GROUP BY，例如每个国家的订单数或每月的销售总额。不指定分组列时，把整张表汇总成一行合计。',
      params: {
        group_by: { label: '分组依据', help: '这些列的每种不同取值组合得到一行结果。留空则只得到一行合计。' },
        aggregations: {
          fields: { column: '列', function: '函数', as: '结果列名' },
          label: '汇总方式',
          help: '由 {"column", "function", "as"} 组成的 JSON 列表；function 可选 count、count_distinct、sum、avg、min、max、first、last（sum 和 avg 需要数字列）。统计行数时 column 写 "*"。"as" 是结果列的名称；不填时名称为 function_column，例如 sum_amount。',
        },
      },
      cost_note: '免费。',
    },
  },
};

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
  const params = resolveParams(description, stored, vars);
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
const runner: SqlRunner = {
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

export const aggregate: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
