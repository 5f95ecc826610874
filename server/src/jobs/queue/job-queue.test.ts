import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import type { Log } from '../../lib/logger';
import { BullMqJobQueue } from './bullmq-queue';
import type { Job, JobQueue } from './job-queue';
import { InMemoryJobQueue } from './memory-queue';
import { queueDrained } from '../../test/wait';

/**
 * One contract, both implementations: what the engine may rely on whichever queue is configured.
 * The in-process queue always; BullMQ when TEST_REDIS_URL is set, each test under a Redis prefix
 * of its own (removed afterwards) so parallel runs never take each other's jobs.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const runPrefix = `test-queue-${randomBytes(4).toString('hex')}`;
const quiet: Log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let made = 0;
const implementations: Array<[string, (concurrency?: number) => JobQueue]> = [
  ['in-process', (concurrency = 4) => new InMemoryJobQueue({ concurrency, log: quiet })],
  ...(redisUrl
    ? [
        [
          'BullMQ',
          (concurrency = 4) =>
            new BullMqJobQueue({
              redisUrl,
              prefix: `${runPrefix}-${++made}`,
              concurrency,
              lockDurationMs: 2000,
              stalledIntervalMs: 1000,
              maxStalledCount: 1,
              log: quiet,
            }),
        ] as [string, (concurrency?: number) => JobQueue],
      ]
    : []),
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await sleep(10);
  }
}

afterAll(async () => {
  if (!redisUrl) return;
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${runPrefix}-*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe.each(implementations)('JobQueue contract: %s', (_label, make) => {
  let queue: JobQueue;
  afterEach(async () => queue.close());

  it('processes every job exactly once, within the concurrency, with the payload as sent', async () => {
    queue = make(3);
    const seen: Job<{ n: number; tags: string[] }>[] = [];
    let active = 0;
    let mostActive = 0;
    queue.process<{ n: number; tags: string[] }>('count', async (job) => {
      active++;
      mostActive = Math.max(mostActive, active);
      await sleep(20);
      seen.push(job);
      active--;
    });
    const ids = await Promise.all(Array.from({ length: 20 }, (_, n) => queue.enqueue('count', { n, tags: ['a'] })));
    await waitFor(() => seen.length >= 20, '20 jobs');
    await queueDrained(queue, 'count');

    expect(seen).toHaveLength(20);
    expect(seen.map((j) => j.data.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(new Set(seen.map((j) => j.id))).toEqual(new Set(ids));
    expect(seen.every((j) => j.name === 'count' && j.attempt === 1 && j.data.tags[0] === 'a')).toBe(true);
    expect(mostActive).toBeLessThanOrEqual(3);
    expect(mostActive).toBeGreaterThan(1);
  });

  it('adds a job once however often it is enqueued with the same jobId, and again once it has finished', async () => {
    queue = make();
    const ids = await Promise.all([1, 2, 3].map((n) => queue.enqueue('once', { n }, { jobId: 'step-run.abc' })));
    expect(ids).toEqual(['step-run.abc', 'step-run.abc', 'step-run.abc']);
    const seen: number[] = [];
    queue.process<{ n: number }>('once', async (job) => void seen.push(job.data.n));
    await waitFor(() => seen.length === 1, 'the job');
    await queueDrained(queue, 'once');
    expect(seen).toEqual([1]);

    await queue.enqueue('once', { n: 4 }, { jobId: 'step-run.abc' });
    await waitFor(() => seen.length === 2, 'the job enqueued again');
    expect(seen).toEqual([1, 4]);
  });

  it('retries a failing job after its backoff until it succeeds, and keeps working after a job that never does', async () => {
    queue = make();
    const tries: Array<{ id: string; attempt: number; at: number }> = [];
    const done: string[] = [];
    queue.process<{ failTimes: number }>('flaky', async (job) => {
      tries.push({ id: job.id, attempt: job.attempt, at: Date.now() });
      if (job.attempt <= job.data.failTimes) throw new Error(`try ${job.attempt} fails`);
      done.push(job.id);
    });
    await queue.enqueue('flaky', { failTimes: 2 }, { jobId: 'flaky-1', attempts: 3, backoff: { type: 'fixed', delayMs: 100 } });
    await queue.enqueue('flaky', { failTimes: 99 }, { jobId: 'hopeless', attempts: 2, backoff: { type: 'exponential', delayMs: 50 } });
    await waitFor(() => done.includes('flaky-1'), 'the third try to succeed');
    await waitFor(() => tries.filter((t) => t.id === 'hopeless').length === 2, 'the hopeless job to use its two tries');

    const flaky = tries.filter((t) => t.id === 'flaky-1');
    expect(flaky.map((t) => t.attempt)).toEqual([1, 2, 3]);
    expect(flaky[1].at - flaky[0].at).toBeGreaterThanOrEqual(90);
    expect(flaky[2].at - flaky[1].at).toBeGreaterThanOrEqual(90);

    // Both finished (the hopeless one finally failed), so the queue still takes and runs new work.
    await queue.enqueue('flaky', { failTimes: 0 }, { jobId: 'after' });
    await waitFor(() => done.includes('after'), 'a job after the failures');
    await queueDrained(queue, 'flaky');
    expect(tries.filter((t) => t.id === 'hopeless')).toHaveLength(2);
  });

  it('counts the unfinished jobs of a name (running, waiting, waiting to retry) until the queue drains', async () => {
    queue = make(1);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tries: string[] = [];
    queue.process<{ fails: boolean }>('tally', async (job) => {
      tries.push(`${job.id}#${job.attempt}`);
      if (job.data.fails && job.attempt === 1) throw new Error('first try fails');
      await gate;
    });
    expect(await queue.unfinished('tally')).toBe(0);
    await queue.enqueue('tally', { fails: true }, { jobId: 'retried', attempts: 2, backoff: { type: 'fixed', delayMs: 50 } });
    await queue.enqueue('tally', { fails: false }, { jobId: 'held' });
    await queue.enqueue('tally', { fails: false }, { jobId: 'behind' });
    await waitFor(() => tries.includes('held#1'), 'the held job to start after the failed try');
    // held runs, behind waits, retried waits out its backoff or waits behind held.
    expect(await queue.unfinished('tally')).toBe(3);
    expect(await queue.unfinished('other')).toBe(0);
    release();
    await queueDrained(queue, 'tally');
    expect(tries.sort()).toEqual(['behind#1', 'held#1', 'retried#1', 'retried#2']);
  });

  it('removes a job that is waiting, but not one that is running', async () => {
    queue = make(1);
    await queue.enqueue('cancel', { n: 1 }, { jobId: 'keep' });
    await queue.enqueue('cancel', { n: 2 }, { jobId: 'cancelled' });
    expect(await queue.remove('cancel', 'cancelled')).toBe(true);
    expect(await queue.remove('cancel', 'cancelled')).toBe(false);
    expect(await queue.remove('cancel', 'never-added')).toBe(false);

    let release!: () => void;
    const seen: string[] = [];
    queue.process('cancel', async (job) => {
      seen.push(job.id);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await waitFor(() => seen.length === 1, 'the kept job to start');
    expect(await queue.remove('cancel', 'keep')).toBe(false);
    release();
    await queueDrained(queue, 'cancel');
    expect(seen).toEqual(['keep']);
  });

  it('close waits for the running jobs to finish', async () => {
    queue = make();
    let started = false;
    let finished = false;
    queue.process('slow', async () => {
      started = true;
      await sleep(400);
      finished = true;
    });
    await queue.enqueue('slow', {});
    await waitFor(() => started, 'the job to start');
    await queue.close();
    expect(finished).toBe(true);
    await expect(queue.enqueue('slow', {})).rejects.toThrow(/closed/);
  });

  it('counts the workers consuming a name: none before a handler, some after', async () => {
    queue = make();
    expect(await queue.workerCount('counted')).toBe(0);
    queue.process('counted', async () => undefined);
    // BullMQ's worker registers its connection name asynchronously.
    const until = Date.now() + 5000;
    let count = await queue.workerCount('counted');
    while (count === 0 && Date.now() < until) {
      await sleep(50);
      count = await queue.workerCount('counted');
    }
    expect(count).toBeGreaterThanOrEqual(1);
  });

  it('pause stops taking jobs (after the running one ends) until resume', async () => {
    queue = make();
    const seen: number[] = [];
    queue.process<{ n: number }>('pausable', async (job) => void seen.push(job.data.n));
    await queue.enqueue('pausable', { n: 1 });
    await waitFor(() => seen.length === 1, 'the first job');
    await queue.pause();
    await queue.enqueue('pausable', { n: 2 });
    // Enqueued (BullMQ: in Redis) and still waiting, not taken.
    expect(await queue.unfinished('pausable')).toBe(1);
    expect(seen).toEqual([1]);
    await queue.resume();
    await waitFor(() => seen.length === 2, 'the job after resume');
  });

  it('refuses job ids and names the other implementation would refuse', async () => {
    queue = make();
    await expect(queue.enqueue('x', {}, { jobId: 'run:1' })).rejects.toThrow(/job id/);
    await expect(queue.enqueue('x', {}, { jobId: '123' })).rejects.toThrow(/job id/);
    await expect(queue.enqueue('a:b', {})).rejects.toThrow(/queue name/);
    await expect(queue.enqueue('x', {}, { attempts: 0 })).rejects.toThrow(/attempts/);
  });
});
