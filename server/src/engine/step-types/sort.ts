import { SORT_KEYS, type SortDirection, type StepType, type StepTypeDescription } from './step-type';
import { sortKeysOf, type ParamValues } from '../params';
import { q, requireColumn, resolveParams } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { POS, withPositions } from '../sql-steps/row-positions';
import { enumParam } from '../sql-steps/param-values';
import { singleInput } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'sort',
  name: 'Sort rows',
  description:
    'Order the rows by one or more columns, each ascending (A to Z, low to high, oldest to newest) or descending (Z to A, high to low, newest to oldest). Rank records by date, price or name.',
  category: 'transform',
  tags: ['sort', 'order', 'rows'],
  params: [
    {
      name: 'columns',
      type: 'sort_keys',
      label: 'Sort by',
      help: 'The columns to order by, each in its own direction; later columns break ties in earlier ones. An item is a column name (in the default direction below) or {"column": "n", "direction": "descending"}.',
      required: true,
    },
    {
      name: 'direction',
      type: 'enum',
      label: 'Default direction',
      help: 'For the columns not given their own. ascending: smallest, earliest or A first. descending: largest, latest or Z first.',
      required: false,
      default: 'ascending',
      options: ['ascending', 'descending'],
    },
    {
      name: 'nulls',
      type: 'enum',
      label: 'Empty values',
      help: 'Whether rows with an empty value go first or last.',
      required: false,
      default: 'last',
      options: ['first', 'last'],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '排序',
      description: '按一列或多列给行排序，升序（A 到 Z，从小到大）或降序（Z 到 A，从大到小）。',
      params: {
        columns: {
          label: '排序依据',
          help: '用来排序的列，每列可有自己的方向；前面的列相同时再按后面的列排序。每项是一个列名（按下面的默认方向），或 {"column": "n", "direction": "descending"}。',
        },
        direction: { label: '默认方向', help: '用于没有单独指定方向的列。ascending：最小、最早或 A 在前。descending：最大、最晚或 Z 在前。' },
        nulls: { label: '空值', help: '值为空的行排在最前还是最后。' },
      },
      cost_note: '免费。',
    },
  },
};

const SQL_DIRECTION = { ascending: 'ASC', descending: 'DESC' } as const;

function sortPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const keys = sortKeysOf(params.columns ?? []);
  if (!keys) throw paramProblem(['columns'], 'server.params.sortKeys', { max: SORT_KEYS.maxItems });
  if (!keys.length) throw paramProblem(['columns'], 'server.params.required');
  const fallback = enumParam(params, 'direction', [...SORT_KEYS.directions]) as SortDirection;
  return {
    columns,
    by: keys.map((key, i) => ({ column: requireColumn(columns, key.column, ['columns', i]), direction: SQL_DIRECTION[key.direction ?? fallback] })),
    nulls: enumParam(params, 'nulls', ['first', 'last']) === 'first' ? 'NULLS FIRST' : 'NULLS LAST',
  };
}

const runner: SqlRunner = {
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => sortPlan(inputs, params, vars).columns,
  toSql(inputs, params, vars) {
    const { by, nulls } = sortPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    // Ties keep the input's order: the sort is stable.
    const order = [...by.map((key) => `${q(key.column.name)} ${key.direction} ${nulls}`), POS].join(', ');
    return { sql: `SELECT * EXCLUDE (${POS}) FROM ${withPositions(inputs[0].table)} ORDER BY ${order}`, params: [] };
  },
};

export const sort: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
