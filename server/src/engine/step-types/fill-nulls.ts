import type { StepTypeDescription } from './step-type';

export const fillNulls: StepTypeDescription = {
  id: 'fill_nulls',
  name: 'Fill empty values',
  description:
    'Fill empty (NULL) values of columns: with a fixed value, with the last non-empty value above (forward fill) or with the next non-empty value below (backward fill), in the order of the rows. Empty values at the very start (forward) or end (backward) stay empty.',
  category: 'transform',
  tags: ['null', 'missing', 'fill', 'clean'],
  params: [
    {
      name: 'fills',
      type: 'json',
      label: 'Fills',
      help: 'A JSON list of {"column", "method", "value"} (at most 200); method is value (the default), forward or backward; value must suit the column: a number for number columns, true/false for boolean ones, text for text, dates ("2024-03-05") and timestamps. E.g. [{"column": "qty", "value": 0}, {"column": "region", "method": "forward"}].',
      required: true,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '填充空值',
      description:
        '按行的顺序填充列中的空值（NULL）：填固定值、用上方最近的非空值填充（向下填充），或用下方最近的非空值填充（向上填充）。最开头（向下填充）或最末尾（向上填充）的空值保持为空。',
      params: {
        fills: {
          label: '填充方式',
          help: '由 {"column", "method", "value"} 组成的 JSON 列表（最多 200 项）；method 可选 value（默认）、forward（用上方的值）或 backward（用下方的值）；value 要符合列的类型：数字列填数字，布尔列填 true/false，文本、日期（"2024-03-05"）和日期时间列填文本。例如 [{"column": "qty", "value": 0}, {"column": "region", "method": "forward"}]。',
        },
      },
      cost_note: '免费。',
    },
  },
};
