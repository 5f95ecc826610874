import type { StepTypeDescription } from './step-type';

/**
 * Every sentence here is what `engine/sandbox` does (CodeSandbox's contract and limits): change
 * them together. The memory figure is `defaultSandboxLimits.memoryLimitBytes`; `timeout_ms` is the
 * sandbox's `timeoutMs`, a hard stop because the runner (`runners/per-record/code.ts`) runs batches
 * in `SandboxPool`'s worker threads.
 */
export const code: StepTypeDescription = {
  id: 'code',
  name: 'Run code',
  description:
    'Write your own JavaScript to transform records in ways the other steps cannot: per record, the code gets the record and returns the new one, null to drop it, or an array to emit several; per batch, it gets a batch of records and returns an array. It runs in a sandbox (QuickJS in WebAssembly) with the language’s built-ins and console.log only: no require, modules, process, files, network or timers. Each batch has a time limit and up to 64 MiB of memory.',
  category: 'transform',
  tags: ['code', 'javascript', 'script', 'per-record'],
  params: [
    {
      name: 'code',
      type: 'code',
      label: 'JavaScript',
      help: 'The body of a function. Per record: `function (record, vars)`, where `record` is an object of column values; return the new record (an object), null or undefined to drop it, or an array of records. Per batch: `function (records, vars)`; return an array of records. `vars` holds the workflow’s variables (read-only). Results are stored as JSON: undefined properties are left out, dates become ISO text, and functions, NaN, Infinity, BigInt or cycles fail the batch. console.log lines appear in the run’s log (up to 100 per batch). An error names the record and the line.',
      required: true,
      default: 'return { ...record };',
      max_length: 20_000,
    },
    {
      name: 'mode',
      type: 'enum',
      label: 'Run the code',
      help: 'per_record: once for each record. per_batch: once for each batch of records (for totals, ranks or lookups across records).',
      required: false,
      default: 'per_record',
      options: ['per_record', 'per_batch'],
    },
    {
      name: 'timeout_ms',
      type: 'number',
      label: 'Time limit per batch (ms)',
      help: 'Records are processed in batches; a batch whose code runs longer than this is stopped, even in the middle of a single long built-in call (such as a huge sort), and the step fails with a timeout.',
      required: false,
      default: 5000,
      min: 100,
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
      description:
        '编写你自己的 JavaScript，完成其他步骤做不到的转换：按记录运行时，代码接收一条记录并返回新记录，返回 null 丢弃该记录，或返回数组输出多条；按批运行时，代码接收一批记录并返回记录数组。代码在沙箱（WebAssembly 中的 QuickJS）中运行，只有语言本身的内置对象和 console.log：没有 require、模块、process、文件、网络或定时器。每批记录有时限，内存最多 64 MiB。',
      params: {
        code: {
          label: 'JavaScript',
          help: '函数体。按记录：`function (record, vars)`，`record` 是由各列值组成的对象；返回新记录（对象），返回 null 或 undefined 丢弃该记录，或返回记录数组。按批：`function (records, vars)`；返回记录数组。`vars` 是工作流的变量（只读）。结果以 JSON 保存：值为 undefined 的属性会被省略，日期变为 ISO 文本，函数、NaN、Infinity、BigInt 或循环引用会使该批失败。console.log 的输出会出现在运行日志中（每批最多 100 行）。出错时会指明记录和行号。',
        },
        mode: { label: '运行方式', help: 'per_record：每条记录运行一次。per_batch：每批记录运行一次（用于跨记录的合计、排名或查找）。' },
        timeout_ms: {
          label: '每批时限（毫秒）',
          help: '记录按批处理；某一批的代码运行超过该时间就会被停止（即使正在执行单个耗时很长的内置调用，例如对海量数据排序），步骤因超时而失败。',
        },
      },
      cost_note: '免费：在我们的工作节点上的沙箱中运行。',
    },
  },
};
