import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { resolveParams } from '../runners/columns';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { integerParam } from '../sql-steps/param-values';
import { singleInput } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'limit',
  name: 'Limit',
  description:
    'Take the first N rows (the top or head of the table), optionally after skipping some. Handy for trying a workflow on a small sample before running it on everything.',
  category: 'transform',
  tags: ['limit', 'rows', 'sample'],
  params: [
    {
      name: 'count',
      type: 'number',
      label: 'Number of rows',
      help: 'How many rows to pass on.',
      required: true,
      default: 100,
      min: 1,
      max: 10_000_000,
      integer: true,
    },
    {
      name: 'offset',
      type: 'number',
      label: 'Skip first',
      help: 'How many rows to skip before taking rows.',
      required: false,
      default: 0,
      min: 0,
      integer: true,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '限制行数',
      description: '取表的前 N 行（开头部分），也可以先跳过若干行。适合先在小样本上试运行工作流，再处理全部数据。',
      params: {
        count: { label: '行数', help: '向后传递多少行。' },
        offset: { label: '跳过前', help: '取行之前先跳过多少行。' },
      },
      cost_note: '免费。',
    },
  },
};

function limitPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  return { columns, count: integerParam(params, 'count', 1), offset: integerParam(params, 'offset', 0) };
}

const runner: SqlRunner = {
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

export const limit: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
