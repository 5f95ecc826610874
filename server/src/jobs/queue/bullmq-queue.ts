import { Queue, Worker, type Job as BullJob } from 'bullmq';
import Redis from 'ioredis';
import type { Log } from '../../lib/logger';
import { checkAttempts, checkJobId, checkName, type EnqueueOptions, type JobHandler, type JobQueue, type ProcessOptions } from './job-queue';

export interface BullMqOptions {
  redisUrl: string;
  /** Key prefix in Redis: one per installation (and one per test run, so runs do not meet). */
  prefix: string;
  concurrency: number;
  /**
   * A running job holds a lock renewed every lockDurationMs / 2. When its worker dies (SIGKILL, a
   * lost machine) the lock lapses, and another worker's check every stalledIntervalMs moves the job
   * back to waiting, at most maxStalledCount times before it counts as failed.
   */
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
  log: Log;
}

/**
 * Jobs in Redis through BullMQ: one BullMQ queue per job name, shared by every API and worker
 * process on the same REDIS_URL and prefix. Finished jobs are removed at once, so the job id is
 * free again (the outcome lives in the database, not here).
 */
export class BullMqJobQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  private connection: Redis | null = null;
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Map<string, Worker>();
  private closed = false;

  constructor(private readonly options: BullMqOptions) {}

  async enqueue<T>(name: string, payload: T, options: EnqueueOptions = {}): Promise<string> {
    if (this.closed) throw new Error('The job queue is closed');
    const job = await this.queue(checkName(name)).add(name, payload ?? null, {
      jobId: options.jobId === undefined ? undefined : checkJobId(options.jobId),
      attempts: checkAttempts(options.attempts),
      backoff: options.backoff && { type: options.backoff.type, delay: options.backoff.delayMs },
      removeOnComplete: true,
      removeOnFail: true,
    });
    return job.id!;
  }

  process<T>(name: string, handler: JobHandler<T>, options: ProcessOptions = {}): void {
    checkName(name);
    if (this.workers.has(name)) throw new Error(`Jobs of "${name}" already have a handler`);
    const { log } = this.options;
    const worker = new Worker(name, async (job: BullJob) => handler({ id: job.id!, name, data: job.data as T, attempt: job.attemptsMade + 1 }), {
      connection: this.redis(),
      prefix: this.options.prefix,
      concurrency: Math.max(1, options.concurrency ?? this.options.concurrency),
      lockDuration: this.options.lockDurationMs,
      stalledInterval: this.options.stalledIntervalMs,
      maxStalledCount: this.options.maxStalledCount,
    });
    worker.on('failed', (job, err) => log.warn({ err, job: job?.id, name, attempt: job?.attemptsMade }, 'job failed'));
    worker.on('stalled', (jobId) => log.warn({ job: jobId, name }, 'job stalled (its worker stopped); it runs again'));
    // Without a listener an 'error' event (Redis gone) would crash the process; BullMQ reconnects.
    worker.on('error', (err) => log.error({ err, name }, 'job worker error'));
    this.workers.set(name, worker);
  }

  async workerCount(name: string): Promise<number | null> {
    try {
      // Workers name their Redis connections after the queue; this lists them (CLIENT LIST).
      return await this.queue(name).getWorkersCount();
    } catch (err) {
      this.options.log.warn({ err }, 'could not count the queue workers');
      return null;
    }
  }

  unfinished(name: string): Promise<number> {
    return this.queue(checkName(name)).getJobCountByTypes('waiting', 'prioritized', 'waiting-children', 'delayed', 'active');
  }

  async remove(name: string, jobId: string): Promise<boolean> {
    const job = await this.queue(checkName(name)).getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    if (!['waiting', 'delayed', 'prioritized', 'paused', 'waiting-children'].includes(state)) return false;
    try {
      await job.remove();
      return true;
    } catch {
      // Taken by a worker between the two calls: it holds a lock, and remove refuses.
      return false;
    }
  }

  async pause(): Promise<void> {
    // Worker.pause only stops this process (Queue.pause would stop every worker everywhere).
    await Promise.all([...this.workers.values()].map((w) => w.pause()));
  }

  async resume(): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.resume()));
  }

  async close(): Promise<void> {
    this.closed = true;
    // Worker.close waits for its running jobs to finish (their locks released, nothing stalls).
    await Promise.all([...this.workers.values()].map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    if (this.connection) await this.connection.quit().catch(() => undefined);
  }

  /** One connection for the queues; BullMQ gives each worker a blocking copy of its own. */
  private redis(): Redis {
    // maxRetriesPerRequest null: BullMQ's workers wait on Redis indefinitely and require it.
    this.connection ??= new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    return this.connection;
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.redis(), prefix: this.options.prefix });
      queue.on('error', (err) => this.options.log.error({ err, name }, 'job queue error'));
      this.queues.set(name, queue);
    }
    return queue;
  }
}
