/**
 * The run engine's job queue: one interface, two implementations chosen by configuration.
 *
 *   enqueue(name, payload, {jobId}) ──► [ in memory (embedded default) | BullMQ on Redis ] ──► process(name, handler)
 *
 * A job only names work that the database describes ("run step run X"); the database, not the queue,
 * is the source of truth. So the in-process queue need not be durable: after a crash or a restart the
 * engine requeues every step run the runs table still shows as queued or running, and a per-record
 * step resumes after its last finished batch. BullMQ adds what one process cannot give: jobs shared
 * by many workers, and a job whose worker died (a stalled job) handed to another one.
 *
 * Handlers must be idempotent: a job may run again after a crash, a stall or a retry (at least once,
 * never lost). Ordering between jobs is not promised.
 */
export interface JobQueue {
  /** 'memory' or 'bullmq', for logs and the health of a deployment. */
  readonly kind: 'memory' | 'bullmq';

  /**
   * Adds a job and answers its id. With `jobId`, adding a job whose id is still waiting, delayed or
   * running adds nothing (the same work asked twice runs once); once that job has finished, the id
   * may be used again.
   */
  enqueue<T>(name: string, payload: T, options?: EnqueueOptions): Promise<string>;

  /** Runs `handler` for the jobs of `name`, at most `concurrency` at once in this process. */
  process<T>(name: string, handler: JobHandler<T>, options?: ProcessOptions): void;

  /**
   * Takes a job out before it starts (a cancelled run). True when it was waiting and is gone; false
   * when it is running (the handler sees the cancellation in the database) or unknown.
   */
  remove(name: string, jobId: string): Promise<boolean>;

  /**
   * How many workers consume jobs of `name` (this process's handler for the in-process queue; every
   * connected BullMQ worker), or null when the queue cannot tell (a Redis without CLIENT LIST).
   */
  workerCount(name: string): Promise<number | null>;

  /**
   * How many jobs of `name` wait, are delayed (a retry's backoff) or run: everywhere for BullMQ,
   * in this process for the in-process queue. 0 means the queue has drained, and nothing of `name`
   * runs again until something is enqueued (tests wait for it before saying nothing else happened).
   */
  unfinished(name: string): Promise<number>;

  /** Stops starting jobs in this process; resolves once the running ones have finished. */
  pause(): Promise<void>;
  resume(): Promise<void>;

  /** Stops taking jobs, waits for the running ones, and lets go of connections. */
  close(): Promise<void>;
}

export interface EnqueueOptions {
  /** Idempotency key; letters, digits, `-`, `_` and `.`, not all digits (BullMQ's rules). */
  jobId?: string;
  /** Tries in all, the first included (default 1). */
  attempts?: number;
  /** Wait before a retry: `delayMs`, or for 'exponential' `delayMs * 2^(retry - 1)`. */
  backoff?: { type: 'fixed' | 'exponential'; delayMs: number };
}

export interface ProcessOptions {
  /** Jobs of this name running at once in this process (default: QUEUE_CONCURRENCY). */
  concurrency?: number;
}

export interface Job<T> {
  id: string;
  name: string;
  /** What was enqueued, after a JSON round trip in both implementations. */
  data: T;
  /** 1 on the first try, 2 on the first retry… (a stalled job taken over keeps its number). */
  attempt: number;
}

export type JobHandler<T> = (job: Job<T>) => Promise<void>;

const JOB_ID = /^[A-Za-z0-9_.-]{1,200}$/;
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** The same rules in both implementations, so code tested on one does not fail on the other. */
export function checkJobId(jobId: string): string {
  if (!JOB_ID.test(jobId) || /^\d+$/.test(jobId)) throw new Error(`Invalid job id "${jobId}": letters, digits, '-', '_' and '.', not all digits`);
  return jobId;
}

export function checkName(name: string): string {
  if (!NAME.test(name)) throw new Error(`Invalid queue name "${name}": letters, digits, '-', '_' and '.'`);
  return name;
}

export function checkAttempts(attempts: number | undefined): number {
  const n = attempts ?? 1;
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new Error(`attempts must be an integer from 1 to 100, got ${attempts}`);
  return n;
}

/** Delay before try number `attempt` + 1, after try `attempt` failed (BullMQ's formula). */
export function backoffDelay(backoff: EnqueueOptions['backoff'], attempt: number): number {
  if (!backoff) return 0;
  return backoff.type === 'exponential' ? backoff.delayMs * 2 ** (attempt - 1) : backoff.delayMs;
}
