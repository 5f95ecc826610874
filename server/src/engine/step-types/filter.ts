import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { resolveParams } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import { checkedExpression } from '../runners/expression';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { enumParam } from '../sql-steps/param-values';
import { singleInput } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'filter',
  name: 'Filter rows',
  description:
    "Keep only the rows that match a condition and drop the rest, e.g. age >= 18 and country = 'NL'. Use it to select a subset of records, exclude unwanted ones, or find the rows where something is true.",
  category: 'transform',
  tags: ['filter', 'rows', 'condition', 'keep'],
  params: [
    {
      name: 'condition',
      type: 'expression',
      label: 'Condition',
      help: "A SQL condition over the columns, written as in DuckDB, that is true for the rows you mean, e.g. price > 100 and status = 'paid'. Put text in 'single quotes' and a column name with spaces in \"double quotes\"; refer to variables as {{var.name}}. Common functions such as lower, round and coalesce work; statements and subqueries do not.",
      required: true,
      max_length: 5000,
    },
    {
      name: 'mode',
      type: 'enum',
      label: 'Matching rows',
      help: 'keep: keep the rows that match. remove: drop the rows that match and keep the others.',
      required: false,
      default: 'keep',
      options: ['keep', 'remove'],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '筛选行',
      description: "只保留满足条件的行，去掉其余的行，例如 age >= 18 and country = 'NL'。用于挑选部分记录、排除不需要的记录，或找出满足某个条件的行。",
      params: {
        condition: {
          label: '条件',
          help: "基于各列的 SQL 条件，写法与 DuckDB 相同，对你想要的行为真，例如 price > 100 and status = 'paid'。文本写在 '单引号' 中，含空格的列名写在 \"双引号\" 中；可用 {{var.name}} 引用变量。可使用 lower、round、coalesce 等常用函数，不能使用语句和子查询。",
        },
        mode: { label: '匹配的行', help: 'keep：保留匹配的行。remove：去掉匹配的行，保留其余的行。' },
      },
      cost_note: '免费。',
    },
  },
};

function filterPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const mode = enumParam(params, 'mode', ['keep', 'remove']);
  const condition = checkedExpression(params.condition, 'condition', columns, vars);
  if (!['boolean', 'unknown', 'null'].includes(condition.category))
    throw paramProblem(['condition'], 'server.steps.conditionNotBoolean', { type: condition.type === 'UNKNOWN' ? condition.category : condition.type });
  return { columns, mode, condition };
}

const runner: SqlRunner = {
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => filterPlan(inputs, params, vars).columns,
  toSql(inputs, params, vars) {
    const { mode, condition } = filterPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    // A condition that is NULL for a row does not match it: kept by "remove", dropped by "keep".
    const where = mode === 'keep' ? `(${condition.sql}) IS TRUE` : `(${condition.sql}) IS NOT TRUE`;
    return { sql: `SELECT * FROM ${inputs[0].table} WHERE ${where}`, params: condition.params };
  },
};

export const filter: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
