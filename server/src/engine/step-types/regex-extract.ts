import type { StepTypeDescription } from './step-type';

export const regexExtract: StepTypeDescription = {
  id: 'regex_extract',
  name: 'Extract with a pattern',
  description:
    'Read parts of a text column with a regular expression (RE2 syntax): put what the pattern\'s groups capture into new columns, e.g. the year and month of "2024-03 report", or add a true/false column saying whether the text contains a match.',
  category: 'transform',
  tags: ['regex', 'pattern', 'extract', 'text'],
  params: [
    { name: 'column', type: 'column', label: 'Text column', help: 'The text column to read.', required: true },
    {
      name: 'pattern',
      type: 'string',
      label: 'Pattern',
      help: 'A regular expression in RE2 syntax (at most 1000 characters), e.g. (\\d{4})-(\\d{2}). It may match anywhere in the text.',
      required: true,
      max_length: 1000,
    },
    {
      name: 'mode',
      type: 'enum',
      label: 'Result',
      help: 'extract: the listed groups to new text columns (empty when the text does not match). matches: one true/false column.',
      required: true,
      default: 'extract',
      options: ['extract', 'matches'],
    },
    {
      name: 'groups',
      type: 'json',
      label: 'Groups',
      help: 'For extract: a JSON list of {"group", "as"} (at most 10); group is 0 for the whole match, 1 to 9 for the parentheses in order, or the name of a named group (?P<name>…); "as" names the new column. E.g. [{"group": 1, "as": "year"}, {"group": "month", "as": "month"}].',
      required: false,
      default: [{ group: 0, as: 'match' }],
    },
    {
      name: 'new_column',
      type: 'string',
      label: 'Match column',
      help: 'For matches: name of the new true/false column.',
      required: false,
      default: 'matches',
      max_length: 128,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '按模式提取',
      description:
        '用正则表达式（RE2 语法）读取文本列的一部分：把模式中各分组捕获的内容放入新列，例如从 "2024-03 report" 中取出年和月；或新增一个真/假列，表示文本是否包含匹配。',
      params: {
        column: { label: '文本列', help: '要读取的文本列。' },
        pattern: { label: '模式', help: 'RE2 语法的正则表达式（最多 1000 个字符），例如 (\\d{4})-(\\d{2})。可以匹配文本中的任意位置。' },
        mode: { label: '结果', help: 'extract：把列出的分组写入新的文本列（文本不匹配时为空）。matches：一个真/假列。' },
        groups: {
          label: '分组',
          help: '用于 extract：由 {"group", "as"} 组成的 JSON 列表（最多 10 项）；group 为 0 表示整个匹配，1 到 9 表示按顺序的括号分组，也可以是命名分组 (?P<name>…) 的名称；"as" 是新列的名称。例如 [{"group": 1, "as": "year"}, {"group": "month", "as": "month"}]。',
        },
        new_column: { label: '匹配列', help: '用于 matches：新的真/假列的名称。' },
      },
      cost_note: '免费。',
    },
  },
};
