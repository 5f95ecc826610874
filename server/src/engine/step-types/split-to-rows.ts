import type { StepTypeDescription } from './step-type';

export const splitToRows: StepTypeDescription = {
  id: 'split_to_rows',
  name: 'Split into rows',
  description:
    'Split a text column at a separator and make one row per part, e.g. "red, green" becomes a row with "red" and a row with "green". The part replaces the text; a position column numbers the parts from 1. The other columns are repeated on each row.',
  category: 'transform',
  tags: ['split', 'explode', 'text', 'rows'],
  params: [
    { name: 'column', type: 'column', label: 'Text column', help: 'The text column to split.', required: true },
    {
      name: 'delimiter',
      type: 'string',
      label: 'Separator',
      help: 'The text between parts, taken literally (not a pattern), e.g. "," or " | ".',
      required: true,
      default: ',',
      max_length: 100,
    },
    { name: 'trim', type: 'boolean', label: 'Trim spaces', help: 'Remove spaces around each part.', required: false, default: true },
    {
      name: 'drop_empty',
      type: 'boolean',
      label: 'Drop empty parts',
      help: 'Leave out parts that are empty (after trimming); a row with no part left disappears.',
      required: false,
      default: true,
    },
    {
      name: 'position_column',
      type: 'string',
      label: 'Position column',
      help: 'Name of the new column numbering each part from 1.',
      required: true,
      default: 'position',
      max_length: 128,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '拆分为多行',
      description:
        '按分隔符拆分文本列，每一部分成为一行，例如 "red, green" 变成 "red" 一行和 "green" 一行。拆出的部分替换原文本；位置列从 1 开始为各部分编号。其他列在每一行上重复。',
      params: {
        column: { label: '文本列', help: '要拆分的文本列。' },
        delimiter: { label: '分隔符', help: '各部分之间的文本，按字面匹配（不是模式），例如 "," 或 " | "。' },
        trim: { label: '去除空格', help: '去掉每一部分两端的空格。' },
        drop_empty: { label: '丢弃空部分', help: '不保留（去空格后）为空的部分；没有剩余部分的行会消失。' },
        position_column: { label: '位置列', help: '从 1 开始为各部分编号的新列的名称。' },
      },
      cost_note: '免费。',
    },
  },
};
