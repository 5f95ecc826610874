import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { columnsParam, findColumn, ID_COLUMN, RECORD_ID, requireColumn, resolveParams, uniqueNames } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { enumParam } from '../sql-steps/param-values';
import { singleInput, selectList } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'select_columns',
  name: 'Select columns',
  description:
    'Choose which columns (fields) to keep, in the order you list them, or which to drop. Use it to remove columns you do not need or to reorder them.',
  category: 'transform',
  tags: ['columns', 'select'],
  params: [
    { name: 'columns', type: 'columns', label: 'Columns', help: 'The columns to keep (or to drop), in order.', required: true },
    {
      name: 'mode',
      type: 'enum',
      label: 'Mode',
      help: 'keep: keep only the listed columns. drop: remove the listed columns and keep all others.',
      required: false,
      default: 'keep',
      options: ['keep', 'drop'],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '选择列',
      description: '选择要保留的列（字段），按你列出的顺序排列；也可以选择要删除的列。用于去掉不需要的列或调整列的顺序。',
      params: {
        columns: { label: '列', help: '要保留（或删除）的列，按顺序排列。' },
        mode: { label: '模式', help: 'keep：只保留所列的列。drop：删除所列的列，保留其他所有列。' },
      },
      cost_note: '免费。',
    },
  },
};

function selectPlan(inputs: Column[][], stored: ParamValues, vars?: Vars): Column[] {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
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

const runner: SqlRunner = {
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

export const selectColumns: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
