import type { StepTypeDescription } from './step-type';

export const aggregate: StepTypeDescription = {
  id: 'aggregate',
  name: 'Group and summarise',
  description:
    'Group rows by one or more columns and summarise each group: count, sum, average, minimum, maximum or number of distinct values, like a pivot table or SQL GROUP BY, e.g. the number of orders per country or total sales per month. Without group columns, summarises the whole table into one row of totals.',
  category: 'transform',
  tags: ['aggregate', 'group', 'summary', 'statistics'],
  params: [
    {
      name: 'group_by',
      type: 'columns',
      label: 'Group by',
      help: 'One result row per distinct combination of these columns. Leave empty for a single row of totals.',
      required: false,
      default: [],
    },
    {
      name: 'aggregations',
      type: 'json',
      label: 'Summaries',
      help: 'A JSON list of {"column", "function", "as"}; function is one of count, count_distinct, sum, avg, min, max, first, last (sum and avg need a number column). Use "*" as the column to count rows. "as" names the result column; without it the name is function_column, e.g. sum_amount.',
      required: true,
      default: [{ column: '*', function: 'count', as: 'count' }],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '分组汇总',
      description:
        '按一列或多列给行分组，并对每组做汇总统计：计数、求和、平均值、最小值、最大值或不同值的个数，类似数据透视表或 SQL 的 GROUP BY，例如每个国家的订单数或每月的销售总额。不指定分组列时，把整张表汇总成一行合计。',
      params: {
        group_by: { label: '分组依据', help: '这些列的每种不同取值组合得到一行结果。留空则只得到一行合计。' },
        aggregations: {
          label: '汇总方式',
          help: '由 {"column", "function", "as"} 组成的 JSON 列表；function 可选 count、count_distinct、sum、avg、min、max、first、last（sum 和 avg 需要数字列）。统计行数时 column 写 "*"。"as" 是结果列的名称；不填时名称为 function_column，例如 sum_amount。',
        },
      },
      cost_note: '免费。',
    },
  },
};
