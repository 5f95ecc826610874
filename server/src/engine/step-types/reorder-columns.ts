import type { StepTypeDescription } from './step-type';

export const reorderColumns: StepTypeDescription = {
  id: 'reorder_columns',
  name: 'Reorder columns',
  description:
    'Move the columns you list to the front, in the order you list them; the other columns follow in their current order. Rows and values do not change.',
  category: 'transform',
  tags: ['columns', 'order', 'move'],
  params: [
    {
      name: 'columns',
      type: 'columns',
      label: 'Columns first',
      help: 'The columns to put first, in this order. List them all for a complete order.',
      required: true,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '调整列顺序',
      description: '把列出的列按列出的顺序移到最前面，其余列按原来的顺序排在后面。行和值都不变。',
      params: { columns: { label: '放在前面的列', help: '要放在最前面的列，按此顺序排列。全部列出即可指定完整顺序。' } },
      cost_note: '免费。',
    },
  },
};
