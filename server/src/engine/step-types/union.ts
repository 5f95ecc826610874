import type { StepTypeDescription } from './step-type';

export const union: StepTypeDescription = {
  id: 'union',
  name: 'Append rows',
  description:
    "Stack the rows of two or more inputs (tables or files with the same columns) one after another into one long table: append, concatenate, UNION ALL. E.g. this month's sales below last month's.",
  category: 'combine',
  tags: ['union', 'append', 'stack', 'combine'],
  params: [
    {
      name: 'match_by',
      type: 'enum',
      label: 'Line columns up by',
      help: "name: columns with the same name go together; missing ones are left empty. position: the first column with the first, and so on, under the first input's names. Columns of different types become text, or the wider number type.",
      required: false,
      default: 'name',
      options: ['name', 'position'],
    },
    {
      name: 'add_source_column',
      type: 'boolean',
      label: 'Add a source column',
      help: 'On: add a _source column telling which input each row came from: 1 for the first, 2 for the second, and so on.',
      required: false,
      default: false,
    },
  ],
  inputs: { min: 2, max: null },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '追加行',
      description: '把两个或更多输入的行上下堆叠成一张长表（追加、拼接、UNION ALL），例如把本月的销售记录接在上月的下面。',
      params: {
        match_by: {
          label: '列的对齐方式',
          help: 'name：同名的列对齐，缺少的列留空。position：按位置对齐，第一列对第一列，依此类推，使用第一个输入的列名。类型不同的列会变成文本，或更宽的数字类型。',
        },
        add_source_column: { label: '添加来源列', help: '开启：增加 _source 列，标明每一行来自哪个输入：第一个为 1，第二个为 2，依此类推。' },
      },
      cost_note: '免费。',
    },
  },
};
