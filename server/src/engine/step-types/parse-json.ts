import type { StepTypeDescription } from './step-type';

export const parseJson: StepTypeDescription = {
  id: 'parse_json',
  name: 'Read JSON fields',
  description:
    'Read a text column holding JSON and copy values at the paths you give into new columns of the type you choose, e.g. $.customer.name or $.items[0].id. A path that leads nowhere gives an empty value; text that is not JSON gives empty values or stops the step, as you choose.',
  category: 'transform',
  tags: ['json', 'parse', 'extract', 'fields'],
  params: [
    { name: 'column', type: 'column', label: 'JSON column', help: 'The text column holding JSON.', required: true },
    {
      name: 'paths',
      type: 'json',
      label: 'Fields',
      help: 'A JSON list of {"path", "as", "type"} (at most 100); path starts with $ and goes down with .key and [index], e.g. $.items[0].id; type is text (the default), integer, number, boolean or json.',
      required: true,
    },
    {
      name: 'on_invalid',
      type: 'enum',
      label: 'Invalid JSON or value',
      help: 'null: text that is not JSON, or a value that does not convert to the type, gives an empty value. fail: stop the step and say why.',
      required: true,
      default: 'null',
      options: ['null', 'fail'],
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '读取 JSON 字段',
      description:
        '读取存放 JSON 的文本列，把指定路径上的值复制到所选类型的新列中，例如 $.customer.name 或 $.items[0].id。路径不存在时得到空值；不是 JSON 的文本可以选择得到空值或让步骤停止。',
      params: {
        column: { label: 'JSON 列', help: '存放 JSON 的文本列。' },
        paths: {
          label: '字段',
          help: '由 {"path", "as", "type"} 组成的 JSON 列表（最多 100 项）；path 以 $ 开头，用 .key 和 [序号] 逐级向下，例如 $.items[0].id；type 可选 text（默认）、integer、number、boolean 或 json。',
        },
        on_invalid: { label: '无效 JSON 或值', help: 'null：不是 JSON 的文本，或无法转换为该类型的值，得到空值。fail：停止步骤并说明原因。' },
      },
      cost_note: '免费。',
    },
  },
};
