import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { q, RECORD_ID, requireColumn, resolveParams, newColumnName, uniqueNames } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { singleInput } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'rename_columns',
  name: 'Rename columns',
  description: 'Give columns (fields) new names, e.g. turn "cust_nm" into "customer_name". Columns you do not mention keep their names.',
  category: 'transform',
  tags: ['columns', 'rename'],
  params: [
    {
      name: 'mapping',
      type: 'json',
      label: 'New names',
      help: 'A JSON object from old name to new name, e.g. {"cust_nm": "customer_name", "amt": "amount"}.',
      required: true,
      default: {},
      shape: 'map',
      fields: [
        { name: 'from', kind: 'column', label: 'Column', required: true },
        { name: 'to', kind: 'text', label: 'New name', required: true },
      ],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '重命名列',
      description: '给列（字段）改名，例如把 "cust_nm" 改成 "customer_name"。未提到的列保持原名。',
      params: {
        mapping: {
          label: '新名称',
          help: '从旧列名到新列名的 JSON 对象，例如 {"cust_nm": "customer_name", "amt": "amount"}。',
          fields: { from: '列', to: '新名称' },
        },
      },
      cost_note: '免费。',
    },
  },
};

function renamePlan(inputs: Column[][], stored: ParamValues, vars?: Vars): { from: Column; to: Column }[] {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
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

const runner: SqlRunner = {
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

export const renameColumns: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
