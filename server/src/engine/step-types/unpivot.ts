import type { StepTypeDescription } from './step-type';

export const unpivot: StepTypeDescription = {
  id: 'unpivot',
  name: 'Unpivot (columns to rows)',
  description:
    "Turn columns into rows: each row becomes one row per chosen column, with the column's name in a name column and its value in a value column, e.g. Jan, Feb, Mar columns become month + sales rows. The other columns are repeated on each new row.",
  category: 'transform',
  tags: ['unpivot', 'melt', 'reshape', 'long'],
  params: [
    {
      name: 'columns',
      type: 'columns',
      label: 'Columns to turn into rows',
      help: 'Their values must be of one kind (numbers, dates, text…), unless you turn on "As text".',
      required: true,
    },
    {
      name: 'name_column',
      type: 'string',
      label: 'Name column',
      help: 'Name of the new column holding the former column names.',
      required: true,
      default: 'name',
      max_length: 128,
    },
    {
      name: 'value_column',
      type: 'string',
      label: 'Value column',
      help: 'Name of the new column holding the values.',
      required: true,
      default: 'value',
      max_length: 128,
    },
    {
      name: 'as_text',
      type: 'boolean',
      label: 'As text',
      help: 'Write every value as text, so columns of different kinds (e.g. numbers and dates) can be turned into rows together.',
      required: false,
      default: false,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '逆透视（列转行）',
      description:
        '把列变成行：每一行按所选的每一列拆成一行，列名写入名称列，值写入取值列，例如 Jan、Feb、Mar 三列变成“月份 + 销售额”的多行。其他列在每个新行上重复。',
      params: {
        columns: { label: '转成行的列', help: '这些列的值必须是同一种类（数字、日期、文本…），除非开启“转为文本”。' },
        name_column: { label: '名称列', help: '存放原列名的新列的名称。' },
        value_column: { label: '取值列', help: '存放值的新列的名称。' },
        as_text: { label: '转为文本', help: '把所有值写成文本，这样不同种类的列（例如数字和日期）也能一起转成行。' },
      },
      cost_note: '免费。',
    },
  },
};
