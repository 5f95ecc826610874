import type { StepTypeDescription } from './step-type';

export const join: StepTypeDescription = {
  id: 'join',
  name: 'Join tables',
  description:
    'Combine two tables side by side by matching key columns, like a lookup, VLOOKUP or SQL JOIN: each row of the first table is merged with the rows of the second table that have the same key, e.g. orders with their customers by customer_id.',
  category: 'combine',
  tags: ['join', 'merge', 'lookup', 'combine'],
  params: [
    {
      name: 'left_on',
      type: 'columns',
      label: 'Key columns of the first table',
      help: 'The columns of the first input to match on.',
      required: true,
      input_index: 0,
    },
    {
      name: 'right_on',
      type: 'columns',
      label: 'Key columns of the second table',
      help: 'The columns of the second input to match on, in the same order.',
      required: true,
      input_index: 1,
      same_length_as: 'left_on',
    },
    {
      name: 'how',
      type: 'enum',
      label: 'Join type',
      help: 'inner: only rows with a match in both. left: every row of the first table. right: every row of the second. full: every row of both.',
      required: false,
      default: 'inner',
      options: ['inner', 'left', 'right', 'full'],
    },
    {
      name: 'suffix',
      type: 'string',
      label: 'Suffix for clashing names',
      help: "Added to the names of the second table's columns that already exist in the first.",
      required: false,
      default: '_right',
      max_length: 32,
    },
  ],
  inputs: { min: 2, max: 2 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '连接表',
      description:
        '按匹配的键列把两张表左右合并，类似查找、VLOOKUP 或 SQL JOIN：第一张表的每一行与第二张表中键相同的行合并，例如按 customer_id 把订单和客户关联起来。',
      params: {
        left_on: { label: '第一张表的键列', help: '第一个输入中用于匹配的列。' },
        right_on: { label: '第二张表的键列', help: '第二个输入中用于匹配的列，顺序与前者对应。' },
        how: { label: '连接方式', help: 'inner：只保留两边都匹配的行。left：保留第一张表的所有行。right：保留第二张表的所有行。full：保留两张表的所有行。' },
        suffix: { label: '重名列后缀', help: '第二张表中与第一张表重名的列，会在列名后加上这个后缀。' },
      },
      cost_note: '免费。',
    },
  },
};
