// A worker process for jobs/queue/bullmq-stalled.test.ts: takes one job, says so on stdout, and never finishes,
// so the test can kill it (SIGKILL) in the middle of the job. Run with `node --import tsx`.
import { BullMqJobQueue } from '../jobs/queue/bullmq-queue';

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (f: object, m?: string) => console.error(m, f) };
const queue = new BullMqJobQueue({
  redisUrl: process.env.REDIS_URL!,
  prefix: process.env.QUEUE_PREFIX!,
  concurrency: 1,
  lockDurationMs: Number(process.env.LOCK_DURATION_MS),
  stalledIntervalMs: Number(process.env.STALLED_INTERVAL_MS),
  maxStalledCount: 1,
  log,
});
queue.process<{ n: number }>(process.env.QUEUE_NAME!, async (job) => {
  process.stdout.write(`started ${job.id} attempt ${job.attempt}\n`);
  await new Promise(() => undefined);
});
process.stdout.write('ready\n');
