import type { ParamValues } from '../params';
import { columnsParam, q, requireColumn, resolveParams } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { enumParam, integerParam } from '../sql-steps/param-values';
import { singleInput } from '../sql-steps/output-columns';
import { POS, withPositions } from '../sql-steps/row-positions';
import type { StepType, StepTypeDescription } from './step-type';

/** The most rows a group may keep: beyond it, the step is no longer "the top few" and limit or filter fit better. */
const MAX_ROWS_PER_GROUP = 1_000_000;

const description: StepTypeDescription = {
  id: 'top_n_per_group',
  name: 'Top N per group',
  description:
    'Keep the first N rows of each group by an order: the three best-selling products of each category, the latest order of each customer, the highest score of each player. Without group columns, the top N of the whole table.',
  category: 'transform',
  tags: ['top', 'rank', 'group', 'rows', 'order'],
  params: [
    {
      name: 'group_by',
      type: 'columns',
      label: 'Group by',
      help: 'Rows with the same values in these columns form a group; none: the whole table is one group.',
      required: false,
      default: [],
    },
    {
      name: 'columns',
      type: 'columns',
      label: 'Order by',
      help: 'The columns that decide which rows come first in each group; later columns break ties in earlier ones.',
      required: true,
    },
    {
      name: 'direction',
      type: 'enum',
      label: 'Direction',
      help: 'descending: largest, latest or Z first (the top N). ascending: smallest, earliest or A first (the bottom N).',
      required: false,
      default: 'descending',
      options: ['descending', 'ascending'],
    },
    {
      name: 'nulls',
      type: 'enum',
      label: 'Empty values',
      help: 'Whether rows with an empty value in an order column come first or last.',
      required: false,
      default: 'last',
      options: ['first', 'last'],
    },
    {
      name: 'count',
      type: 'number',
      label: 'Rows per group',
      help: 'How many rows to keep from each group.',
      required: true,
      default: 1,
      min: 1,
      max: MAX_ROWS_PER_GROUP,
      integer: true,
    },
    {
      name: 'ties',
      type: 'enum',
      label: 'Ties',
      help: 'first: exactly N rows per group; rows with equal order values keep their order in the table. all: every row equal to the N-th is kept too, so a group may keep more than N.',
      required: false,
      default: 'first',
      options: ['first', 'all'],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '每组前 N 行',
      description: '按某个顺序保留每组的前 N 行：每个类别销量最高的三种商品、每位客户最近的一笔订单、每位玩家的最高分。不设分组列时，取整张表的前 N 行。',
      params: {
        group_by: { label: '分组依据', help: '这些列的值相同的行为一组；不选则整张表为一组。' },
        columns: { label: '排序依据', help: '决定每组中哪些行排在前面的列；前面的列相同时再按后面的列排序。' },
        direction: { label: '方向', help: 'descending：最大、最晚或 Z 在前（前 N 行）。ascending：最小、最早或 A 在前（后 N 行）。' },
        nulls: { label: '空值', help: '排序列为空的行排在最前还是最后。' },
        count: { label: '每组行数', help: '每组保留多少行。' },
        ties: { label: '并列', help: 'first：每组正好 N 行；排序值相同的行按其在表中的先后。all：与第 N 行并列的行也都保留，所以一组可能多于 N 行。' },
      },
      cost_note: '免费。',
    },
  },
};

function topPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const groupBy = columnsParam(params, 'group_by').map((name, i) => requireColumn(columns, name, ['group_by', i]));
  const orderBy = columnsParam(params, 'columns');
  if (!orderBy.length) throw paramProblem(['columns'], 'server.params.required');
  const count = integerParam(params, 'count', 1);
  if (count > MAX_ROWS_PER_GROUP) throw paramProblem(['count'], 'server.params.maximum', { limit: MAX_ROWS_PER_GROUP });
  return {
    columns,
    groupBy,
    orderBy: orderBy.map((name, i) => requireColumn(columns, name, ['columns', i])),
    direction: enumParam(params, 'direction', ['descending', 'ascending']) === 'ascending' ? 'ASC' : 'DESC',
    nulls: enumParam(params, 'nulls', ['first', 'last']) === 'first' ? 'NULLS FIRST' : 'NULLS LAST',
    count,
    keepTies: enumParam(params, 'ties', ['first', 'all']) === 'all',
  };
}

const runner: SqlRunner = {
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => topPlan(inputs, params, vars).columns,
  toSql(inputs, params, vars) {
    const { groupBy, orderBy, direction, nulls, count, keepTies } = topPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const partition = groupBy.length ? `PARTITION BY ${groupBy.map((c) => q(c.name)).join(', ')} ` : '';
    const order = orderBy.map((c) => `${q(c.name)} ${direction} ${nulls}`);
    // row_number() with the row's position last: exactly N, ties going to the earlier row. rank()
    // without it: rows equal to the N-th share its rank, so all of them are kept.
    const over = keepTies ? `rank() OVER (${partition}ORDER BY ${order.join(', ')})` : `row_number() OVER (${partition}ORDER BY ${[...order, POS].join(', ')})`;
    // The kept rows stay in the input's order, as deduplicate's do.
    return { sql: `SELECT * EXCLUDE (${POS}) FROM ${withPositions(inputs[0].table)} QUALIFY ${over} <= $1 ORDER BY ${POS}`, params: [count] };
  },
};

export const topNPerGroup: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
