import type { StepTypeDescription } from './step-type';

export const pivot: StepTypeDescription = {
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
