import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { columnsParam, q, requireColumn, resolveParams } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { POS, withPositions } from '../sql-steps/row-positions';
import { enumParam } from '../sql-steps/param-values';
import { singleInput } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'sort',
  name: 'Sort rows',
  description:
    'Order the rows by one or more columns, ascending (A to Z, low to high, oldest to newest) or descending (Z to A, high to low, newest to oldest). Rank records by date, price or name.',
  category: 'transform',
  tags: ['sort', 'order', 'rows'],
  params: [
    { name: 'columns', type: 'columns', label: 'Sort by', help: 'The columns to order by; later columns break ties in earlier ones.', required: true },
    {
      name: 'direction',
      type: 'enum',
      label: 'Direction',
      help: 'ascending: smallest, earliest or A first. descending: largest, latest or Z first.',
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
        columns: { label: '排序依据', help: '用来排序的列；前面的列相同时再按后面的列排序。' },
        direction: { label: '方向', help: 'ascending：最小、最早或 A 在前。descending：最大、最晚或 Z 在前。' },
        nulls: { label: '空值', help: '值为空的行排在最前还是最后。' },
      },
      cost_note: '免费。',
    },
  },
};

function sortPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const by = columnsParam(params, 'columns');
  if (!by.length) throw paramProblem(['columns'], 'server.params.required');
  return {
    columns,
    by: by.map((name, i) => requireColumn(columns, name, ['columns', i])),
    direction: enumParam(params, 'direction', ['ascending', 'descending']) === 'ascending' ? 'ASC' : 'DESC',
    nulls: enumParam(params, 'nulls', ['first', 'last']) === 'first' ? 'NULLS FIRST' : 'NULLS LAST',
  };
}

const runner: SqlRunner = {
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

export const sort: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
