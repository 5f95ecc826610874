import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { findColumn, q, resolveParams, newColumnName } from '../runners/columns';
import { checkedExpression } from '../runners/expression';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { singleInput } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'add_column',
  name: 'Add column',
  description:
    'Add a new column (or replace one) whose value is calculated from the other columns of the same row with a formula, e.g. price * quantity or upper(country).',
  category: 'transform',
  tags: ['columns', 'calculate', 'formula'],
  params: [
    {
      name: 'new_column',
      type: 'string',
      label: 'Column name',
      help: 'Name of the column to add; an existing column of that name is replaced.',
      required: true,
      max_length: 128,
    },
    {
      name: 'expression',
      type: 'expression',
      label: 'Formula',
      help: "A SQL expression over the row's columns, written as in DuckDB, e.g. price * quantity, concat(first_name, ' ', last_name) or {{var.rate}} * amount. Put text in 'single quotes' and a column name with spaces in \"double quotes\".",
      required: true,
      max_length: 5000,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '添加列',
      description: '新增一列（或替换已有列），它的值由同一行其他列的公式计算得出，例如 price * quantity 或 upper(country)。',
      params: {
        new_column: { label: '列名', help: '要添加的列名；若已有同名列则替换它。' },
        expression: {
          label: '公式',
          help: "基于该行各列的 SQL 表达式，写法与 DuckDB 相同，例如 price * quantity、concat(first_name, ' ', last_name) 或 {{var.rate}} * amount。文本写在 '单引号' 中，含空格的列名写在 \"双引号\" 中。",
        },
      },
      cost_note: '免费。',
    },
  },
};

/**
 * The new column goes last; when the input already has a column of that name (compared as DuckDB
 * does, without regard to case), the formula's values replace it where it stands, under the
 * spelling given. `_id` cannot be replaced.
 */
function addColumnPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const name = newColumnName(params.new_column, ['new_column']);
  const formula = checkedExpression(params.expression, 'expression', columns, vars);
  const added: Column = { name, type: formula.type };
  const replaced = findColumn(columns, name);
  const out = replaced ? columns.map((c) => (c === replaced ? added : c)) : [...columns, added];
  return { out, added, formula };
}

const runner: SqlRunner = {
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => addColumnPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { out, added, formula } = addColumnPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const list = out.map((c) => (c === added ? `${formula.sql} AS ${q(c.name)}` : q(c.name)));
    return { sql: `SELECT ${list.join(', ')} FROM ${inputs[0].table}`, params: formula.params };
  },
};

export const addColumn: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
