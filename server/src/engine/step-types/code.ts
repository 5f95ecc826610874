import type { JsonRecord, JsonValue } from '../datasets';
import { translate } from '../../i18n/messages';
import type { ParamValues } from '../params';
import { SandboxError, SandboxPool, type CodeMode, type LogLine } from '../sandbox';
import { expectInputs, RECORD_ID, resolveParams } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import { StepRunFailed } from '../runners/execute';
import type { PerRecordRunner, RunContext, Vars } from '../runners/types';
import type { StepType, StepTypeDescription } from './step-type';

/**
 * Every sentence here is what `engine/sandbox` does (CodeSandbox's contract and limits): change
 * them together. The memory figure is `defaultSandboxLimits.memoryLimitBytes`; `timeout_ms` is the
 * sandbox's `timeoutMs`, a hard stop because the runner (below, in this module) runs batches
 * in `SandboxPool`'s worker threads.
 */
const description: StepTypeDescription = {
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

/**
 * The code step (`step-types/code.ts`): the user's JavaScript over each batch, in the QuickJS
 * sandbox run by a pool of worker threads (`sandbox/worker-pool.ts`), so `timeout_ms` is a hard
 * stop even inside one long built-in call. Output `replace`: the rows are whatever the code
 * returns; a row whose `_id` is one of its batch's input records keeps that record's identity,
 * any other `_id` (made up, not text, or a repeat of a fan-out) is dropped so the writer gives
 * the row a new one.
 */

export const CODE_BATCH_SIZE = 500;
const TIMEOUT_MIN = 100;
const TIMEOUT_MAX = 30_000;

interface CodePlan {
  code: string;
  mode: CodeMode;
  timeoutMs: number;
}

function codePlan(stored: ParamValues, vars?: Vars): CodePlan {
  const params = resolveParams(description, stored, vars);
  const { code, mode, timeout_ms: timeoutMs } = params;
  if (typeof code !== 'string' || !code.trim()) throw paramProblem(['code'], 'server.params.required');
  if (mode !== 'per_record' && mode !== 'per_batch') throw paramProblem(['mode'], 'server.params.enum', { values: 'per_record, per_batch' });
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs)) throw paramProblem(['timeout_ms'], 'server.params.integer');
  if (timeoutMs < TIMEOUT_MIN) throw paramProblem(['timeout_ms'], 'server.params.minimum', { limit: TIMEOUT_MIN });
  if (timeoutMs > TIMEOUT_MAX) throw paramProblem(['timeout_ms'], 'server.params.maximum', { limit: TIMEOUT_MAX });
  return { code, mode, timeoutMs };
}

/** The workflow's variables as the code sees them: JSON only (a value JSON cannot carry is left out). */
function jsonVars(vars: Vars): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(vars)) {
    try {
      const text = JSON.stringify(value);
      if (text !== undefined) out[name] = JSON.parse(text) as JsonValue;
    } catch {
      // A BigInt or a cycle in a variable: the code cannot receive it, so it does not exist there.
    }
  }
  return out;
}

const recordName = (records: readonly JsonRecord[], index: number): string => {
  const id = records[index]?.[RECORD_ID];
  return typeof id === 'string' ? `record “${id}”, number ${index + 1} of its batch` : `record number ${index + 1} of its batch`;
};

/** A sandbox failure as the step's failure: the English text (it goes to the run's log) plus the record and line. */
function stepFailure(err: SandboxError, records: readonly JsonRecord[]): StepRunFailed {
  const where = [err.recordIndex === undefined ? null : recordName(records, err.recordIndex), err.line === undefined ? null : `line ${err.line}`].filter(
    Boolean,
  );
  const text = translate('en', err.key, err.values);
  return new StepRunFailed(where.length ? `${text} (${where.join(', ')})` : text, err);
}

/** A console line of the code, as it wrote it; the record it ran for named by its id where it has one. */
function logConsole(ctx: RunContext, line: LogLine, records: readonly JsonRecord[]): void {
  const level = `console.${line.level}`;
  if (line.record === null) return ctx.log('server.runLog.console', { level, text: line.text });
  const id = records[line.record]?.[RECORD_ID];
  if (typeof id === 'string') ctx.log('server.runLog.consoleRecord', { level, record: { key: 'server.runLog.record', values: { id } }, text: line.text });
  else ctx.log('server.runLog.consoleRecordNumber', { level, number: line.record + 1, text: line.text });
}

/** Keeps `_id` only where it names one of the batch's input records, and only on its first row. */
function withIdentity(rows: JsonRecord[], records: readonly JsonRecord[]): JsonRecord[] {
  const inputIds = new Set(records.map((r) => r[RECORD_ID]).filter((id): id is string => typeof id === 'string'));
  const used = new Set<string>();
  return rows.map((row) => {
    if (!(RECORD_ID in row)) return row;
    const id = row[RECORD_ID];
    if (typeof id === 'string' && inputIds.has(id) && !used.has(id)) {
      used.add(id);
      return row;
    }
    const { [RECORD_ID]: _dropped, ...rest } = row;
    return rest;
  });
}

function aborted(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The run was stopped', 'AbortError');
}

let sharedPool: SandboxPool | null = null;

/** `pool`: tests and callers that want their own workers; by default one pool per process, made on first use. */
export function createCodeRunner(options: { pool?: SandboxPool } = {}): PerRecordRunner {
  const pool = () => options.pool ?? (sharedPool ??= new SandboxPool());
  return {
    kind: 'per-record',
    output: 'replace',
    // Only running tells which columns the code makes; the engine reads them off the written dataset.
    outputColumns(inputs, params, vars) {
      expectInputs(inputs, 1, 1);
      codePlan(params, vars);
      return [];
    },
    batchSize: () => CODE_BATCH_SIZE,
    async processBatch(ctx: RunContext, records, params) {
      const plan = codePlan(params, ctx.vars);
      if (ctx.signal.aborted) throw aborted(ctx.signal);
      let result;
      try {
        result = await pool().runBatch({
          code: plan.code,
          mode: plan.mode,
          limits: { timeoutMs: plan.timeoutMs },
          records,
          vars: jsonVars(ctx.vars),
          signal: ctx.signal,
        });
      } catch (err) {
        if (err instanceof SandboxError) throw stepFailure(err, records);
        throw err;
      }
      for (const line of result.logs) logConsole(ctx, line, records);
      if (result.droppedLogLines > 0) ctx.log('server.runLog.consoleDropped', { count: result.droppedLogLines, kept: result.logs.length });
      return { rows: withIdentity(result.records, records) };
    },
  };
}

const runner = createCodeRunner();

export const code: StepType = { description, runner, cacheable: true, billing: 'records', outsideCalls: 'none' };
