import type { StepTypeDescription } from './step-type';

export const deduplicate: StepTypeDescription = {
  id: 'deduplicate',
  name: 'Remove duplicates',
  description:
    'Remove duplicate rows: when several rows are repeated (identical, or the same in the columns you choose, such as email), leave a single one of them, the first or the last. Cleans up doubled records.',
  category: 'transform',
  tags: ['deduplicate', 'duplicates', 'rows', 'clean'],
  params: [
    {
      name: 'columns',
      type: 'columns',
      label: 'Compare columns',
      help: 'Rows count as duplicates when these columns are equal. Leave empty to compare whole rows.',
      required: false,
      default: [],
    },
    {
      name: 'keep',
      type: 'enum',
      label: 'Which copy stays',
      help: 'first: keep the earliest of each group of duplicates. last: keep the latest.',
      required: false,
      default: 'first',
      options: ['first', 'last'],
    },
    {
      name: 'ignore_case',
      type: 'boolean',
      label: 'Ignore upper/lower case',
      help: 'On: "Ada@Example.com" and "ada@example.com" count as the same value. Surrounding spaces are ignored too.',
      required: false,
      default: false,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '去除重复',
      description: '删除重复的行：当几行内容重复（完全相同，或在你选择的列上相同，例如 email）时，只保留其中一行，第一行或最后一行。用于清理重复记录、去重。',
      params: {
        columns: { label: '比较的列', help: '这些列的值都相同时，几行被视为重复。留空则比较整行。' },
        keep: { label: '保留哪一行', help: 'first：每组重复中保留最早的一行。last：保留最后的一行。' },
        ignore_case: { label: '忽略大小写', help: '开启："Ada@Example.com" 与 "ada@example.com" 视为相同的值，首尾空格也会忽略。' },
      },
      cost_note: '免费。',
    },
  },
};
