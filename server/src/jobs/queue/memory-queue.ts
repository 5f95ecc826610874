import { randomUUID } from 'node:crypto';
import type { Log } from '../../lib/logger';
import { backoffDelay, checkAttempts, checkJobId, checkName, type EnqueueOptions, type JobHandler, type JobQueue, type ProcessOptions } from './job-queue';

interface Entry {
  id: string;
  name: string;
  /** JSON, so a handler never shares objects with the code that enqueued (as with BullMQ). */
  data: string;
  attempt: number;
  attempts: number;
  backoff: EnqueueOptions['backoff'];
}

interface Lane {
  ready: Entry[];
  handler: JobHandler<unknown> | null;
  concurrency: number;
  active: number;
}

/**
 * The embedded default: jobs in this process's memory, run by the handlers registered here. Not
 * durable on purpose (see job-queue.ts): what a crash loses, the engine requeues from the runs table.
 */
export class InMemoryJobQueue implements JobQueue {
  readonly kind = 'memory' as const;
  private readonly lanes = new Map<string, Lane>();
  /** Every job not yet finished, by `name/id`: the idempotency check. */
  private readonly pending = new Map<string, Entry>();
  private readonly delayed = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private paused = false;
  private closed = false;

  constructor(private readonly options: { concurrency: number; log: Log }) {}

  async enqueue<T>(name: string, payload: T, options: EnqueueOptions = {}): Promise<string> {
    if (this.closed) throw new Error('The job queue is closed');
    checkName(name);
    const id = options.jobId === undefined ? randomUUID() : checkJobId(options.jobId);
    const key = `${name}/${id}`;
    if (this.pending.has(key)) return id;
    const entry: Entry = { id, name, data: JSON.stringify(payload ?? null), attempt: 1, attempts: checkAttempts(options.attempts), backoff: options.backoff };
    this.pending.set(key, entry);
    this.lane(name).ready.push(entry);
    this.dispatch(name);
    return id;
  }

  process<T>(name: string, handler: JobHandler<T>, options: ProcessOptions = {}): void {
    const lane = this.lane(checkName(name));
    if (lane.handler) throw new Error(`Jobs of "${name}" already have a handler`);
    lane.handler = handler as JobHandler<unknown>;
    lane.concurrency = Math.max(1, options.concurrency ?? this.options.concurrency);
    this.dispatch(name);
  }

  workerCount(name: string): Promise<number | null> {
    return Promise.resolve(this.lanes.get(name)?.handler ? 1 : 0);
  }

  unfinished(name: string): Promise<number> {
    let count = 0;
    for (const entry of this.pending.values()) if (entry.name === name) count++;
    return Promise.resolve(count);
  }

  async remove(name: string, jobId: string): Promise<boolean> {
    const key = `${name}/${jobId}`;
    const timer = this.delayed.get(key);
    if (timer) {
      clearTimeout(timer);
      this.delayed.delete(key);
      this.pending.delete(key);
      return true;
    }
    const lane = this.lanes.get(name);
    const index = lane?.ready.findIndex((e) => e.id === jobId) ?? -1;
    if (!lane || index < 0) return false;
    lane.ready.splice(index, 1);
    this.pending.delete(key);
    return true;
  }

  async pause(): Promise<void> {
    this.paused = true;
    await Promise.allSettled([...this.running]);
  }

  async resume(): Promise<void> {
    this.paused = false;
    for (const name of this.lanes.keys()) this.dispatch(name);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    // Running jobs finish; waiting ones are dropped (the engine requeues them from the database).
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private lane(name: string): Lane {
    let lane = this.lanes.get(name);
    if (!lane) {
      lane = { ready: [], handler: null, concurrency: this.options.concurrency, active: 0 };
      this.lanes.set(name, lane);
    }
    return lane;
  }

  private dispatch(name: string): void {
    const lane = this.lanes.get(name);
    while (lane?.handler && !this.paused && !this.closed && lane.active < lane.concurrency && lane.ready.length) {
      const entry = lane.ready.shift()!;
      lane.active++;
      const run = this.run(lane.handler, entry).finally(() => {
        lane.active--;
        this.running.delete(run);
        this.dispatch(name);
      });
      this.running.add(run);
    }
  }

  private async run(handler: JobHandler<unknown>, entry: Entry): Promise<void> {
    const key = `${entry.name}/${entry.id}`;
    try {
      await handler({ id: entry.id, name: entry.name, data: JSON.parse(entry.data) as unknown, attempt: entry.attempt });
      this.pending.delete(key);
    } catch (err) {
      if (entry.attempt < entry.attempts && !this.closed) {
        const delay = backoffDelay(entry.backoff, entry.attempt);
        this.options.log.warn({ err, job: entry.id, name: entry.name, attempt: entry.attempt, retryInMs: delay }, 'job failed; retrying');
        entry.attempt++;
        const timer = setTimeout(() => {
          this.delayed.delete(key);
          this.lane(entry.name).ready.push(entry);
          this.dispatch(entry.name);
        }, delay);
        timer.unref();
        this.delayed.set(key, timer);
      } else {
        this.pending.delete(key);
        this.options.log.error({ err, job: entry.id, name: entry.name, attempt: entry.attempt }, 'job failed');
      }
    }
  }
}
