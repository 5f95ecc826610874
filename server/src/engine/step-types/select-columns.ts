import type { StepTypeDescription } from './step-type';

export const selectColumns: StepTypeDescription = {
  id: 'select_columns',
  name: 'Select columns',
  description:
    'Choose which columns (fields) to keep, in the order you list them, or which to drop. Use it to remove columns you do not need or to reorder them.',
  category: 'transform',
  tags: ['columns', 'select'],
  params: [
    { name: 'columns', type: 'columns', label: 'Columns', help: 'The columns to keep (or to drop), in order.', required: true },
    {
      name: 'mode',
      type: 'enum',
      label: 'Mode',
      help: 'keep: keep only the listed columns. drop: remove the listed columns and keep all others.',
      required: false,
      default: 'keep',
      options: ['keep', 'drop'],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '选择列',
      description: '选择要保留的列（字段），按你列出的顺序排列；也可以选择要删除的列。用于去掉不需要的列或调整列的顺序。',
      params: {
        columns: { label: '列', help: '要保留（或删除）的列，按顺序排列。' },
        mode: { label: '模式', help: 'keep：只保留所列的列。drop：删除所列的列，保留其他所有列。' },
      },
      cost_note: '免费。',
    },
  },
};
