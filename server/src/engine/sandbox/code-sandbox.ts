import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { SandboxError } from './errors';
import { harnessSource } from './harness';
import { discardQuickJS, loadQuickJS, QUICKJS_INITIAL_MEMORY_BYTES } from './quickjs';

/**
 * The code step's sandbox: the user's JavaScript runs in QuickJS compiled to WebAssembly, one fresh
 * runtime and context per batch, with a memory limit, a stack limit and a wall-clock deadline. The
 * context holds the language's own built-ins only (plus a `console` whose lines come back with the
 * results): no `require`, `process`, `fetch`, timers, modules, files or network, because QuickJS
 * gives a bare context none of them and we add none.
 *
 * The contract (also in the step's catalogue text, `step-types/code.ts`):
 * - `per_record`: the code is the body of `function (record, vars)`, called once per record. It
 *   returns the new record (a plain object), `null`/`undefined` to drop the record, or an array of
 *   records to emit several (its `null`/`undefined` items are skipped).
 * - `per_batch`: the code is the body of `function (records, vars)`, called once per batch; it
 *   returns an array of records (`null`/`undefined` items skipped).
 * - `record` is the input record as JSON (column name → value); `vars` the workflow's variables,
 *   resolved and frozen. Results go back as JSON: a property that is `undefined` is left out, a Date
 *   becomes its ISO text; a function, symbol, BigInt, NaN, Infinity or a cycle fails the batch.
 * - Anything thrown fails the batch with the message, the record and the line.
 *
 * Deadline caveat: QuickJS checks the deadline while JavaScript runs (about every 10,000 calls or
 * loop turns, and inside regular expressions), not inside one built-in call, so one slow built-in
 * (`Array.prototype.indexOf.call({ length: 1e10 }, 1)`) runs on past it. The code step therefore
 * runs batches through `SandboxPool` (`worker-pool.ts`), whose host-side timer terminates the
 * worker thread; this class alone is the soft limit that names the record.
 */
export type CodeMode = 'per_record' | 'per_batch';

export interface SandboxLimits {
  /**
   * All the memory one batch's QuickJS may use (its WebAssembly memory: about 1 MiB of its own,
   * the rest heap); at least 32 MiB, since the module starts with 16.
   */
  memoryLimitBytes: number;
  /** QuickJS's stack; above ~384 KiB the host's own stack can run out first, so that is the ceiling. */
  maxStackSizeBytes: number;
  /** Wall-clock time of one batch (parse the input, run the code, serialise the results). */
  timeoutMs: number;
  /** Length of the records and variables of one batch as JSON text (UTF-16 code units). */
  maxInputChars: number;
  /** Length of one batch's results as JSON text. */
  maxOutputChars: number;
  maxLogLines: number;
  maxLogLineChars: number;
}

export const defaultSandboxLimits: SandboxLimits = {
  memoryLimitBytes: 64 * 1024 * 1024,
  maxStackSizeBytes: 256 * 1024,
  timeoutMs: 5_000,
  maxInputChars: 16 * 1024 * 1024,
  maxOutputChars: 16 * 1024 * 1024,
  maxLogLines: 100,
  maxLogLineChars: 1_000,
};

const ceilings: SandboxLimits = {
  memoryLimitBytes: 1024 * 1024 * 1024,
  maxStackSizeBytes: 384 * 1024,
  timeoutMs: 10 * 60_000,
  maxInputChars: 128 * 1024 * 1024,
  maxOutputChars: 128 * 1024 * 1024,
  maxLogLines: 10_000,
  maxLogLineChars: 100_000,
};

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonRecord = { [key: string]: JsonValue };

export interface LogLine {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  text: string;
  /** The record being worked on when it was written (`firstRecordIndex` + place); null per batch. */
  record: number | null;
}

export interface BatchResult {
  records: JsonRecord[];
  /** per_record: for each result, its input's place in the batch (0-based); per_batch: null. */
  sources: number[] | null;
  logs: LogLine[];
  /** Console lines beyond `maxLogLines`, not kept. */
  droppedLogLines: number;
}

export interface RunBatchOptions {
  vars?: Record<string, JsonValue>;
  /** Position of the batch's first record in the whole input, so errors and logs name records as the user sees them. */
  firstRecordIndex?: number;
}

interface HarnessError {
  code: 'thrown' | 'memory' | 'stack' | 'not_json' | 'bad_return' | 'output_too_large';
  index: number | null;
  name?: string;
  message?: string;
  line?: number | null;
  key?: string;
  what?: string;
  got?: string;
  limit?: number;
  isNull?: boolean;
}

function clamp(value: number, floor: number, ceiling: number): number {
  if (!Number.isFinite(value)) return ceiling;
  return Math.min(Math.max(Math.floor(value), floor), ceiling);
}

/** The code's lines are the user's lines: the wrapper's opening shares line 1. */
function wrap(code: string, mode: CodeMode): string {
  return `(function (${mode === 'per_batch' ? 'records' : 'record'}, vars) {${code}\n})`;
}

export class CodeSandbox {
  readonly limits: SandboxLimits;

  /**
   * `loadModule` is for tests (QuickJS's leak-checking debug build); by default batches share one
   * module per process and memory limit.
   */
  constructor(
    readonly code: string,
    readonly mode: CodeMode = 'per_record',
    limits: Partial<SandboxLimits> = {},
    private readonly loadModule?: () => Promise<Pick<QuickJSWASMModule, 'newRuntime' | 'getWasmMemory'>>,
  ) {
    const merged = { ...defaultSandboxLimits, ...limits };
    this.limits = {
      memoryLimitBytes: clamp(merged.memoryLimitBytes, 2 * QUICKJS_INITIAL_MEMORY_BYTES, ceilings.memoryLimitBytes),
      maxStackSizeBytes: clamp(merged.maxStackSizeBytes, 32 * 1024, ceilings.maxStackSizeBytes),
      timeoutMs: clamp(merged.timeoutMs, 1, ceilings.timeoutMs),
      maxInputChars: clamp(merged.maxInputChars, 1, ceilings.maxInputChars),
      maxOutputChars: clamp(merged.maxOutputChars, 1, ceilings.maxOutputChars),
      maxLogLines: clamp(merged.maxLogLines, 0, ceilings.maxLogLines),
      maxLogLineChars: clamp(merged.maxLogLineChars, 1, ceilings.maxLogLineChars),
    };
  }

  /**
   * Runs the code over one batch in a runtime of its own, disposed before this returns. Resolves
   * with the results or rejects with a `SandboxError`; never leaves QuickJS memory behind.
   * Asynchronous so that a hard stop in a worker thread can come later without changing callers.
   */
  async runBatch(records: readonly JsonRecord[], options: RunBatchOptions = {}): Promise<BatchResult> {
    const first = options.firstRecordIndex ?? 0;
    let input: string;
    try {
      input = JSON.stringify({ r: records, v: options.vars ?? {} });
    } catch (err) {
      // The engine hands in dataset rows; a BigInt or a cycle there is its bug, not the user's.
      throw new TypeError("code sandbox: the batch's records or variables are not JSON", { cause: err });
    }
    if (input.length > this.limits.maxInputChars) throw new SandboxError('input_too_large', { limit: this.limits.maxInputChars });

    const module: Pick<QuickJSWASMModule, 'newRuntime' | 'getWasmMemory'> = await (this.loadModule
      ? this.loadModule()
      : loadQuickJS(this.limits.memoryLimitBytes));
    let runtime: QuickJSRuntime | null = null;
    try {
      runtime = module.newRuntime({ memoryLimitBytes: this.limits.memoryLimitBytes, maxStackSizeBytes: this.limits.maxStackSizeBytes });
      const memory = module.getWasmMemory();
      // Emscripten grows its memory by steps of 5-20%, so the last step that fits can stop short
      // of the cap: within 80% of it counts as "at the cap".
      const result = this.inRuntime(runtime, input, first, () => !this.loadModule && memory.buffer.byteLength >= 0.8 * this.limits.memoryLimitBytes);
      runtime.dispose();
      runtime = null;
      return result;
    } catch (err) {
      if (err instanceof SandboxError) {
        runtime?.dispose();
        throw err;
      }
      // A failure of the WebAssembly module itself (the host's stack, an abort): its state is
      // suspect, so it is not touched again (no dispose) and the next batch loads a fresh one.
      if (!this.loadModule) discardQuickJS(this.limits.memoryLimitBytes);
      throw new SandboxError('crashed', { message: err instanceof Error ? err.message.slice(0, 200) : 'unknown' });
    }
  }

  private inRuntime(runtime: QuickJSRuntime, input: string, first: number, atMemoryCap: () => boolean): BatchResult {
    const deadline = Date.now() + this.limits.timeoutMs;
    let timedOut = false;
    runtime.setInterruptHandler(() => {
      if (Date.now() <= deadline) return false;
      timedOut = true;
      return true;
    });
    const context = runtime.newContext();
    const handles: QuickJSHandle[] = [];
    try {
      const harness = this.evaluate(context, handles, harnessSource(this.limits), 'harness.js', () => timedOut);
      const fn = this.evaluate(context, handles, wrap(this.code, this.mode), 'code.js', () => timedOut);
      const run = context.getProp(harness, 'run');
      handles.push(run);
      const inputHandle = context.newString(input);
      handles.push(inputHandle);
      const perBatch = this.mode === 'per_batch' ? context.true : context.false;
      const firstHandle = context.newNumber(first);
      handles.push(firstHandle);
      const called = context.callFunction(run, context.undefined, fn, inputHandle, perBatch, firstHandle);
      if (called.error) {
        const dumped = context.dump(called.error) as unknown;
        called.error.dispose();
        if (timedOut) {
          runtime.setInterruptHandler(() => false);
          throw new SandboxError(
            'timeout',
            { seconds: this.limits.timeoutMs / 1000 },
            this.mode === 'per_record' ? this.where(context, handles, harness) : undefined,
          );
        }
        throw this.uncaught(dumped);
      }
      const text = context.getString(called.value);
      called.value.dispose();
      return this.parseAnswer(text, atMemoryCap);
    } finally {
      for (const handle of handles.reverse()) if (handle.alive) handle.dispose();
      context.dispose();
    }
  }

  /** Evaluates a script; a failure here is a syntax error in the user's code (or a limit hit while compiling). */
  private evaluate(context: QuickJSContext, handles: QuickJSHandle[], source: string, filename: string, timedOut: () => boolean): QuickJSHandle {
    const result = context.evalCode(source, filename);
    if (result.error) {
      const dumped = context.dump(result.error) as unknown;
      result.error.dispose();
      if (timedOut()) throw new SandboxError('timeout', { seconds: this.limits.timeoutMs / 1000 });
      const error = this.uncaught(dumped);
      if (error.code === 'thrown' && filename === 'code.js') {
        throw new SandboxError('syntax', error.values, undefined, error.line);
      }
      throw error;
    }
    handles.push(result.value);
    if (filename === 'code.js' && context.typeof(result.value) !== 'function') {
      // The code closed the wrapper's brace itself: what is left is not one function body.
      throw new SandboxError('syntax', { name: 'SyntaxError', message: 'the code must be the body of one function' });
    }
    return result.value;
  }

  private where(context: QuickJSContext, handles: QuickJSHandle[], harness: QuickJSHandle): number | undefined {
    const whereFn = context.getProp(harness, 'where');
    handles.push(whereFn);
    const called = context.callFunction(whereFn, context.undefined);
    if (called.error) {
      called.error.dispose();
      return undefined;
    }
    const index = context.getNumber(called.value);
    called.value.dispose();
    return index >= 0 ? index : undefined;
  }

  /** An error that escaped the harness: out of memory or stack while it was itself working, or a syntax error. */
  private uncaught(dumped: unknown): SandboxError {
    const error = (dumped && typeof dumped === 'object' ? dumped : {}) as { name?: unknown; message?: unknown; lineNumber?: unknown; stack?: unknown };
    const name = typeof error.name === 'string' ? error.name : 'Error';
    const message = typeof error.message === 'string' ? error.message.slice(0, 500) : String(dumped).slice(0, 500);
    if (name === 'InternalError' && message === 'out of memory') return new SandboxError('memory', { mib: this.limits.memoryLimitBytes / 1024 / 1024 });
    if (name === 'InternalError' && message === 'stack overflow') return new SandboxError('stack', {});
    let line = typeof error.lineNumber === 'number' ? error.lineNumber : undefined;
    if (line === undefined && typeof error.stack === 'string') {
      const found = /code\.js:(\d+)/.exec(error.stack);
      if (found) line = Number(found[1]);
    }
    return new SandboxError('thrown', { name, message }, undefined, line);
  }

  private parseAnswer(text: string, atMemoryCap: () => boolean): BatchResult {
    // The harness bounds the results; this bounds the whole answer (logs included) in case the
    // user's code has found a way around it.
    if (text.length > this.limits.maxOutputChars + this.limits.maxLogLines * (this.limits.maxLogLineChars + 100) + 1024) {
      throw new SandboxError('output_too_large', { limit: this.limits.maxOutputChars });
    }
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new SandboxError('bad_return', { got: 'unreadable answer' });
    }
    const body = (answer ?? {}) as { error?: HarnessError; records?: unknown; sources?: unknown; logs?: unknown; dropped?: unknown };
    if (body.error) throw this.harnessError(body.error, atMemoryCap);
    if (!Array.isArray(body.records) || !body.records.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) {
      throw new SandboxError('bad_return', { got: 'unreadable answer' });
    }
    const sources = Array.isArray(body.sources) && body.sources.length === body.records.length ? (body.sources as number[]) : null;
    if (this.mode === 'per_record' && !sources) throw new SandboxError('bad_return', { got: 'unreadable answer' });
    return {
      records: body.records as JsonRecord[],
      sources,
      logs: Array.isArray(body.logs) ? (body.logs as LogLine[]) : [],
      droppedLogLines: typeof body.dropped === 'number' ? body.dropped : 0,
    };
  }

  private harnessError(error: HarnessError, atMemoryCap: () => boolean): SandboxError {
    const index = typeof error.index === 'number' ? error.index : undefined;
    const line = typeof error.line === 'number' ? error.line : undefined;
    if (error.code === 'thrown' && error.isNull === true && atMemoryCap())
      return new SandboxError('memory', { mib: this.limits.memoryLimitBytes / 1024 / 1024 }, index);
    switch (error.code) {
      case 'thrown':
        return new SandboxError('thrown', { name: String(error.name ?? 'Error'), message: String(error.message ?? '') }, index, line);
      case 'memory':
        return new SandboxError('memory', { mib: this.limits.memoryLimitBytes / 1024 / 1024 }, index);
      case 'stack':
        return new SandboxError('stack', {}, index, line);
      case 'not_json':
        return new SandboxError('not_json', { key: String(error.key ?? ''), what: String(error.what ?? '') }, index);
      case 'output_too_large':
        return new SandboxError('output_too_large', { limit: this.limits.maxOutputChars }, index);
      default:
        return new SandboxError('bad_return', { got: String(error.got ?? 'unknown') }, index);
    }
  }
}
