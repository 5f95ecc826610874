import type { StepTypeDescription } from './step-type';

export const code: StepTypeDescription = {
  id: 'code',
  name: 'Run code',
  description:
    'Write your own JavaScript code that runs on each record to transform it in ways the other steps cannot: the function gets the record and returns the new one, or null to skip it. For custom logic and scripting.',
  category: 'transform',
  tags: ['code', 'javascript', 'script', 'per-record'],
  params: [
    {
      name: 'code',
      type: 'code',
      label: 'JavaScript',
      help: 'The body of a function of `record` (an object of column values). Return an object with the new record, or null to drop it. Variables are available as {{var.name}}.',
      required: true,
      default: 'return { ...record };',
      max_length: 20_000,
    },
    {
      name: 'timeout_ms',
      type: 'number',
      label: 'Time limit per record (ms)',
      help: 'A record whose code runs longer than this fails with a timeout.',
      required: false,
      default: 1000,
      min: 10,
      max: 30_000,
      integer: true,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'record', credits: 0, note: 'Free: runs in a sandbox on our workers.' },
  i18n: {
    'zh-CN': {
      name: '运行代码',
      description: '对每条记录运行你自己的 JavaScript 代码，完成其他步骤做不到的转换：函数接收记录并返回新记录，返回 null 则跳过该记录。适合自定义逻辑和脚本。',
      params: {
        code: { label: 'JavaScript', help: '以 `record`（由各列值组成的对象）为参数的函数体。返回新记录对象，或返回 null 丢弃该记录。可用 {{var.name}} 引用变量。' },
        timeout_ms: { label: '每条记录的时限（毫秒）', help: '代码运行超过该时间的记录会因超时而失败。' },
      },
      cost_note: '免费：在我们的工作节点上的沙箱中运行。',
    },
  },
};
