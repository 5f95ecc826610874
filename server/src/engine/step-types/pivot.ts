import type { StepType, StepTypeDescription } from './step-type';
import type { ParamValues } from '../params';
import { columnsParam, ID_COLUMN, q, RECORD_ID, resolveParams, typeCategory, newColumnName, uniqueNames } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, SqlRunner, Vars } from '../runners/types';
import { POS, withPositions } from '../sql-steps/row-positions';
import { enumParam } from '../sql-steps/param-values';
import { singleInput, dataColumn } from '../sql-steps/output-columns';
import type { Loc } from '../sql-steps/output-columns';

const description: StepTypeDescription = {
  id: 'pivot',
  name: 'Pivot (rows to columns)',
  description:
    "Turn values of one column into columns of their own, e.g. one row per product with a column per month holding that month's sales. One row per combination of the index columns; each listed value of the pivot column becomes a column holding the sum, count, average, minimum, maximum or first of the value column over the rows with that value.",
  category: 'transform',
  tags: ['pivot', 'reshape', 'wide', 'crosstab'],
  params: [
    {
      name: 'index',
      type: 'columns',
      label: 'Row keys',
      help: 'One result row per distinct combination of these columns. Leave empty for a single row.',
      required: false,
      default: [],
    },
    { name: 'pivot_column', type: 'column', label: 'Column to spread', help: 'The column whose values become column names, e.g. month.', required: true },
    {
      name: 'values',
      type: 'json',
      label: 'New columns',
      help: 'A JSON list of the values of the column to spread that become columns (1 to 100), e.g. ["Jan", "Feb", "Mar"]. Rows with other values are left out.',
      required: true,
      values_of: 'pivot_column',
    },
    { name: 'value_column', type: 'column', label: 'Values from', help: 'The column summarised into the new columns, e.g. sales.', required: true },
    {
      name: 'function',
      type: 'enum',
      label: 'Summary',
      help: 'How the values of one cell are combined: sum, count, avg (average), min, max or first (in row order). sum and avg need a number column.',
      required: true,
      default: 'sum',
      options: ['sum', 'count', 'avg', 'min', 'max', 'first'],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '透视（行转列）',
      description:
        '把某一列的值变成独立的列，例如每个产品一行，每个月一列，填入该月的销售额。行键列的每种取值组合得到一行；展开列的每个列出的值成为一列，内容是该值所在行的取值列的求和、计数、平均值、最小值、最大值或第一个值。',
      params: {
        index: { label: '行键', help: '这些列的每种不同取值组合得到一行结果。留空则只得到一行。' },
        pivot_column: { label: '展开的列', help: '其值将成为列名的列，例如月份。' },
        values: { label: '新列', help: '展开列中要变成列的值组成的 JSON 列表（1 到 100 个），例如 ["Jan", "Feb", "Mar"]。其他值的行不计入。' },
        value_column: { label: '取值列', help: '汇总到新列中的列，例如销售额。' },
        function: {
          label: '汇总方式',
          help: '一个单元格中的多个值如何合并：sum（求和）、count（计数）、avg（平均）、min、max 或 first（按行顺序的第一个）。sum 和 avg 需要数字列。',
        },
      },
      cost_note: '免费。',
    },
  },
};

export const PIVOT_FUNCTIONS = ['sum', 'count', 'avg', 'min', 'max', 'first'] as const;
const MAX_PIVOT_VALUES = 100;

function pivotPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = singleInput(inputs);
  const params = resolveParams(description, stored, vars);
  const index = columnsParam(params, 'index').map((name, i) => dataColumn(columns, name, ['index', i]));
  const pivotColumn = dataColumn(columns, params.pivot_column, ['pivot_column']);
  const valueColumn = dataColumn(columns, params.value_column, ['value_column']);
  const fn = enumParam(params, 'function', [...PIVOT_FUNCTIONS]) as (typeof PIVOT_FUNCTIONS)[number];
  if ((fn === 'sum' || fn === 'avg') && !['number', 'unknown'].includes(typeCategory(valueColumn.type))) {
    throw paramProblem(['value_column'], 'server.steps.notNumeric', { column: valueColumn.name, type: valueColumn.type, operation: fn });
  }
  const values = params.values;
  if (!Array.isArray(values) || !values.length || values.length > MAX_PIVOT_VALUES)
    throw paramProblem(['values'], 'server.steps.pivotValues', { limit: MAX_PIVOT_VALUES });
  const texts = values.map((v: unknown, i) => {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      throw paramProblem(['values', i], 'server.steps.pivotValues', { limit: MAX_PIVOT_VALUES });
    return newColumnName(String(v), ['values', i]);
  });
  const type = fn === 'count' ? 'BIGINT' : fn === 'avg' ? 'DOUBLE' : fn === 'sum' ? sumType(valueColumn.type) : valueColumn.type;
  const valueColumns = texts.map((name, i) => ({ column: { name, type }, loc: ['values', i] as Loc }));
  const out = [...index, ...valueColumns.map((v) => v.column)];
  uniqueNames(out, (c) => valueColumns.find((v) => v.column === c)?.loc ?? ['index', index.indexOf(c)]);
  if (index.includes(pivotColumn) || index.includes(valueColumn)) throw paramProblem(['index'], 'server.steps.pivotIndex');
  return { index, pivotColumn, valueColumn, fn, texts, out: [ID_COLUMN, ...out] };
}

/** As aggregate's sums: integers BIGINT (Parquet has no HUGEINT), decimals DECIMAL(38,s), else DOUBLE. */
const sumType = (type: string) =>
  /^U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?$/i.test(type)
    ? 'BIGINT'
    : /^DECIMAL\((\d+),\s*(\d+)\)$/i.test(type)
      ? type.replace(/^DECIMAL\(\d+/i, 'DECIMAL(38')
      : type === 'UNKNOWN'
        ? 'UNKNOWN'
        : 'DOUBLE';

/**
 * One row per distinct combination of the index columns; one column per listed value of the pivot
 * column (compared as text), holding the summary of the value column over that group's rows with
 * that value (NULL where there are none; count: 0). Rows whose pivot value is not listed count
 * nowhere. The columns must be listed (at most 100) so the step's columns are known before it runs.
 * `_id` comes from the group key as aggregate's does.
 */
const runner: SqlRunner = {
  keepsIdsUnique: true,
  kind: 'sql',
  outputColumns: (inputs, params, vars) => pivotPlan(inputs, params, vars).out,
  toSql(inputs, params, vars) {
    const { index, pivotColumn, valueColumn, fn, texts, out } = pivotPlan(
      inputs.map((i) => i.columns),
      params,
      vars,
    );
    const v = q(valueColumn.name);
    const p = `CAST(${q(pivotColumn.name)} AS VARCHAR)`;
    const summaries = texts.map((_, i) => {
      const filter = `FILTER (WHERE ${p} = $${i + 1})`;
      const type = out[index.length + 1 + i].type;
      const cast = type === 'UNKNOWN' ? (e: string) => e : (e: string) => `CAST(${e} AS ${type})`;
      if (fn === 'first') return `first(${v} ORDER BY ${POS}) ${filter}`;
      if (fn === 'count') return `count(${v}) ${filter}`;
      return cast(`${fn}(${v}) ${filter}`);
    });
    const text = (c: Column) => `CAST(${q(c.name)} AS VARCHAR)`;
    const key = index.length
      ? index.map((c) => `CASE WHEN ${q(c.name)} IS NULL THEN '~' ELSE length(${text(c)}) || ':' || ${text(c)} END`).join(` || '|' || `)
      : `''`;
    const hash = q('__stepwise_hash');
    const inner = [`md5(${key}) AS ${hash}`, ...index.map((c) => q(c.name)), ...summaries.map((s, i) => `${s} AS ${q(texts[i])}`)].join(', ');
    const groupBy = index.length ? ` GROUP BY ${index.map((c) => q(c.name)).join(', ')}` : '';
    const uuid = `substr(${hash}, 1, 8) || '-' || substr(${hash}, 9, 4) || '-' || substr(${hash}, 13, 4) || '-' || substr(${hash}, 17, 4) || '-' || substr(${hash}, 21, 12)`;
    const orderBy = index.length ? ` ORDER BY ${index.map((c) => `${q(c.name)} ASC NULLS LAST`).join(', ')}` : '';
    return {
      sql: `SELECT ${uuid} AS ${q(RECORD_ID)}, * EXCLUDE (${hash}) FROM (SELECT ${inner} FROM ${withPositions(inputs[0].table)}${groupBy})${orderBy}`,
      params: texts,
    };
  },
};

export const pivot: StepType = { description, runner, cacheable: true, billing: 'run', outsideCalls: 'none' };
