import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { columnsParam, findColumn, q, RECORD_ID, requireColumn, resolveParams } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { singleInput } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'reorder_columns',
  name: 'Reorder columns',
  description:
    'Move the columns you list to the front, in the order you list them; the other columns follow in their current order. Rows and values do not change.',
  category: 'transform',
  tags: ['columns', 'order', 'move'],
  params: [
    {
      name: 'columns',
      type: 'columns',
      label: 'Columns first',
      help: 'The columns to put first, in this order. List them all for a complete order.',
      required: true,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '调整列顺序',
      description: '把列出的列按列出的顺序移到最前面，其余列按原来的顺序排在后面。行和值都不变。',
      params: { columns: { label: '放在前面的列', help: '要放在最前面的列，按此顺序排列。全部列出即可指定完整顺序。' } },
      cost_note: '免费。',
    },
  },
};

function reorderPlan(inputs: Column[][], stored: ParamValues, vars?: Vars): Column[] {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
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
const runner: SqlRunner = {
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

export const reorderColumns: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
