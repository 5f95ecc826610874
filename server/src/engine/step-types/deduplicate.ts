import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { columnsParam, q, RECORD_ID, requireColumn, resolveParams, typeCategory } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { POS, withPositions } from '../sql-steps/row-positions';
import { enumParam } from '../sql-steps/param-values';
import { singleInput } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'deduplicate',
  name: 'Remove duplicates',
  description:
    'Remove duplicate rows: when several rows are repeated (identical, or the same in the columns you choose, such as email), leave a single one of them, the first or the last. Cleans up doubled records.',
  category: 'transform',
  tags: ['deduplicate', 'duplicates', 'rows', 'clean'],
  params: [
    {
      name: 'columns',
      type: 'columns',
      label: 'Compare columns',
      help: 'Rows count as duplicates when these columns are equal. Leave empty to compare whole rows.',
      required: false,
      default: [],
    },
    {
      name: 'keep',
      type: 'enum',
      label: 'Which copy stays',
      help: 'first: keep the earliest of each group of duplicates. last: keep the latest.',
      required: false,
      default: 'first',
      options: ['first', 'last'],
    },
    {
      name: 'ignore_case',
      type: 'boolean',
      label: 'Ignore upper/lower case',
      help: 'On: "Ada@Example.com" and "ada@example.com" count as the same value. Surrounding spaces are ignored too.',
      required: false,
      default: false,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '去除重复',
      description: '删除重复的行：当几行内容重复（完全相同，或在你选择的列上相同，例如 email）时，只保留其中一行，第一行或最后一行。用于清理重复记录、去重。',
      params: {
        columns: { label: '比较的列', help: '这些列的值都相同时，几行被视为重复。留空则比较整行。' },
        keep: { label: '保留哪一行', help: 'first：每组重复中保留最早的一行。last：保留最后的一行。' },
        ignore_case: { label: '忽略大小写', help: '开启："Ada@Example.com" 与 "ada@example.com" 视为相同的值，首尾空格也会忽略。' },
      },
      cost_note: '免费。',
    },
  },
};

function dedupePlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const listed = columnsParam(params, 'columns').map((name, i) => requireColumn(columns, name, ['columns', i]));
  const keys = listed.length ? listed : columns.filter((c) => c.name !== RECORD_ID);
  const keep = enumParam(params, 'keep', ['first', 'last']);
  if (typeof params.ignore_case !== 'boolean') throw paramProblem(['ignore_case'], 'server.params.boolean');
  return { columns, keys, keep, ignoreCase: params.ignore_case };
}

const runner: SqlRunner = {
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

export const deduplicate: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
