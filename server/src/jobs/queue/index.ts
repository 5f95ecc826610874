import type { Config } from '../../config/config';
import type { Log } from '../../lib/logger';
import { BullMqJobQueue } from './bullmq-queue';
import type { JobQueue } from './job-queue';
import { InMemoryJobQueue } from './memory-queue';

export type { EnqueueOptions, Job, JobHandler, JobQueue, ProcessOptions } from './job-queue';
export { BullMqJobQueue } from './bullmq-queue';
export { InMemoryJobQueue } from './memory-queue';

/** The configured queue: BullMQ when QUEUE_BACKEND says so (the default with REDIS_URL), else in memory. */
export function createJobQueue(config: Config, log: Log, options: { prefix?: string } = {}): JobQueue {
  const q = config.queue;
  if (q.backend === 'bullmq') {
    if (!config.redisUrl) throw new Error('QUEUE_BACKEND=bullmq needs REDIS_URL');
    return new BullMqJobQueue({
      redisUrl: config.redisUrl,
      prefix: options.prefix ?? q.prefix,
      concurrency: q.concurrency,
      lockDurationMs: q.lockDurationMs,
      stalledIntervalMs: q.stalledIntervalMs,
      maxStalledCount: q.maxStalledCount,
      log,
    });
  }
  return new InMemoryJobQueue({ concurrency: q.concurrency, log });
}
