import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/worker-threads';
import type { BatchResult, CodeMode, JsonRecord, JsonValue, SandboxLimits } from './code-sandbox';
import { defaultSandboxLimits } from './code-sandbox';
import { SandboxError, type SandboxErrorCode, type SandboxErrorValues } from './errors';

/**
 * Runs code-step batches in `worker_threads`, so the time limit is a hard stop: QuickJS checks its
 * deadline only between JavaScript operations, so one long built-in call (a sort of millions of
 * items, `'x'.repeat(1e9)`) would run on past it. The host here arms its own timer when the worker
 * says the batch started; if the worker has not answered by `timeoutMs` plus a small grace, it is
 * terminated (V8 stops it wherever it is) and replaced by a fresh one for the next batch.
 *
 * Workers are reused across batches (each batch still gets a fresh QuickJS runtime and context
 * inside, see `CodeSandbox`); at most `size` run at once, further batches wait in order. Idle
 * workers do not keep the process alive.
 */

export interface WorkerJob {
  id: number;
  code: string;
  mode: CodeMode;
  limits: Partial<SandboxLimits>;
  records: readonly JsonRecord[];
  vars: Record<string, JsonValue>;
}

export type WorkerAnswer =
  | { id: number; type: 'started' }
  | { id: number; type: 'done'; result: BatchResult }
  | { id: number; type: 'failed'; error: { code: SandboxErrorCode; values: SandboxErrorValues; recordIndex?: number; line?: number } };

export interface SandboxPoolOptions {
  /** Batches that run at once (worker threads kept); 1 to 8, default 2. */
  size?: number;
  /** Time past the batch's own limit before the worker is terminated (default 1000 ms). */
  graceMs?: number;
  /** Longest wait for a worker to load QuickJS and start a batch (default 30 s). */
  startupTimeoutMs?: number;
}

export interface PoolBatch {
  code: string;
  mode: CodeMode;
  limits?: Partial<SandboxLimits>;
  records: readonly JsonRecord[];
  vars?: Record<string, JsonValue>;
  /** Aborting terminates the batch's worker at once and rejects with the signal's reason. */
  signal?: AbortSignal;
}

interface Slot {
  worker: Worker;
  busy: boolean;
}

function spawnWorker(): Worker {
  // The host's own heap limit of a worker: its QuickJS memory is capped separately (a WebAssembly
  // memory), this bounds the JSON of batches going in and out.
  return startWorker(path.join(__dirname, 'sandbox-worker'), { resourceLimits: { maxOldGenerationSizeMb: 512 } });
}

export class SandboxPool {
  readonly size: number;
  private readonly graceMs: number;
  private readonly startupTimeoutMs: number;
  private readonly slots: Slot[] = [];
  private readonly waiting: (() => void)[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: SandboxPoolOptions = {}) {
    this.size = Math.min(Math.max(Math.floor(options.size ?? 2), 1), 8);
    this.graceMs = options.graceMs ?? 1000;
    this.startupTimeoutMs = options.startupTimeoutMs ?? 30_000;
  }

  /** Workers alive now (for tests: a terminated one is gone, its replacement comes with the next batch). */
  get workerCount(): number {
    return this.slots.length;
  }

  async runBatch(batch: PoolBatch): Promise<BatchResult> {
    if (this.closed) throw new Error('the sandbox pool is closed');
    if (batch.signal?.aborted) throw abortReason(batch.signal);
    const slot = await this.acquire(batch.signal);
    try {
      return await this.runOn(slot, batch);
    } finally {
      this.release(slot);
    }
  }

  /** Terminates every worker; batches still running reject. */
  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private async acquire(signal?: AbortSignal): Promise<Slot> {
    for (;;) {
      const idle = this.slots.find((s) => !s.busy);
      if (idle) {
        idle.busy = true;
        idle.worker.ref();
        return idle;
      }
      if (this.slots.length < this.size) {
        const slot: Slot = { worker: spawnWorker(), busy: true };
        this.slots.push(slot);
        return slot;
      }
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        // A batch cancelled while waiting leaves the queue, so the next release wakes a live waiter.
        const onAbort = () => {
          const index = this.waiting.indexOf(wake);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(abortReason(signal!));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(wake);
      });
    }
  }

  private release(slot: Slot): void {
    if (this.slots.includes(slot)) {
      slot.busy = false;
      slot.worker.unref();
    }
    this.waiting.shift()?.();
  }

  private discard(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.worker.terminate();
  }

  private runOn(slot: Slot, batch: PoolBatch): Promise<BatchResult> {
    const limits = { ...batch.limits };
    const timeoutMs = limits.timeoutMs ?? defaultSandboxLimits.timeoutMs;
    const id = this.nextId++;
    const { worker } = slot;
    return new Promise<BatchResult>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (stop: boolean, outcome: () => void) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        batch.signal?.removeEventListener('abort', onAbort);
        if (stop) this.discard(slot);
        outcome();
      };
      const arm = (ms: number, error: () => SandboxError) => {
        clearTimeout(timer);
        timer = setTimeout(() => finish(true, () => reject(error())), ms);
      };
      const onMessage = (answer: WorkerAnswer) => {
        if (answer.id !== id) return;
        if (answer.type === 'started') return arm(timeoutMs + this.graceMs, () => new SandboxError('timeout', { seconds: timeoutMs / 1000 }));
        if (answer.type === 'done') return finish(false, () => resolve(answer.result));
        const { code, values, recordIndex, line } = answer.error;
        finish(false, () => reject(new SandboxError(code, values, recordIndex, line)));
      };
      const onError = (err: Error) => finish(true, () => reject(new SandboxError('crashed', { message: err.message.slice(0, 200) })));
      const onExit = (exitCode: number) => finish(true, () => reject(new SandboxError('crashed', { message: `worker exited with code ${exitCode}` })));
      const onAbort = () => finish(true, () => reject(abortReason(batch.signal!)));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      batch.signal?.addEventListener('abort', onAbort, { once: true });
      arm(this.startupTimeoutMs, () => new SandboxError('crashed', { message: 'the sandbox worker did not start' }));
      const job: WorkerJob = { id, code: batch.code, mode: batch.mode, limits, records: batch.records, vars: batch.vars ?? {} };
      worker.postMessage(job);
    });
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The run was stopped', 'AbortError');
}
