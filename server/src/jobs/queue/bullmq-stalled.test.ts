import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Redis from 'ioredis';
import type { Log } from '../../lib/logger';
import { queueDrained } from '../../test/wait';
import { BullMqJobQueue } from './bullmq-queue';

/**
 * A worker machine dies in the middle of a job (SIGKILL: no cleanup, no lock released). Another
 * worker must not take the job while the first one is alive and holds its lock, and must take it
 * once the lock lapses: the job is neither lost nor run twice at once. Lock and check intervals are
 * shortened so this takes a few seconds, not BullMQ's default 30.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const describeWithRedis = redisUrl ? describe : describe.skip;

const LOCK_DURATION_MS = 1000;
const STALLED_INTERVAL_MS = 500;
const quiet: Log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithRedis('BullMQ: a job whose worker was killed', () => {
  const prefix = `test-stalled-${randomBytes(4).toString('hex')}`;
  const name = 'step-run';
  let child: ChildProcess | null = null;
  let survivor: BullMqJobQueue;

  beforeAll(() => {
    survivor = new BullMqJobQueue({
      redisUrl: redisUrl!,
      prefix,
      concurrency: 1,
      lockDurationMs: LOCK_DURATION_MS,
      stalledIntervalMs: STALLED_INTERVAL_MS,
      maxStalledCount: 1,
      log: quiet,
    });
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await survivor.close();
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  /** Starts the fixture worker and resolves with each line it prints, as they come. */
  function startDoomedWorker(): { lines: string[] } {
    const lines: string[] = [];
    child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../../test/stalled-bullmq-worker.ts')], {
      cwd: path.resolve(__dirname, '../../../..'),
      env: {
        ...process.env,
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: prefix,
        QUEUE_NAME: name,
        LOCK_DURATION_MS: String(LOCK_DURATION_MS),
        STALLED_INTERVAL_MS: String(STALLED_INTERVAL_MS),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts);
    });
    return { lines };
  }

  async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
      await sleep(20);
    }
  }

  // Over Jest’s 5 s: a worker process started and killed, three lock durations waited out, then a takeover (5 s).
  it('is taken by another worker once the dead one’s lock lapses, and only then', async () => {
    const doomed = startDoomedWorker();
    await waitFor(() => doomed.lines.includes('ready'), 'the doomed worker to start');
    await survivor.enqueue(name, { n: 7 }, { jobId: 'step-run.1' });
    await waitFor(() => doomed.lines.includes('started step-run.1 attempt 1'), 'the doomed worker to take the job');

    const taken: Array<{ id: string; data: unknown; attempt: number }> = [];
    survivor.process(name, async (job) => void taken.push({ id: job.id, data: job.data, attempt: job.attempt }));
    // The first worker is alive and renews its lock: the job stays with it for three lock
    // durations (a time span is what this asserts, so it is waited out).
    await sleep(3 * LOCK_DURATION_MS);
    expect(taken).toEqual([]);

    child!.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    const killedAt = Date.now();
    await waitFor(() => taken.length > 0, 'the survivor to take the stalled job');

    expect(taken).toEqual([{ id: 'step-run.1', data: { n: 7 }, attempt: 1 }]);
    // Lock lapse plus at most two stall checks, with room for a slow machine.
    expect(Date.now() - killedAt).toBeLessThan(LOCK_DURATION_MS + 4 * STALLED_INTERVAL_MS + 3000);
    await queueDrained(survivor, name);
    expect(taken).toHaveLength(1);
  }, 30_000);
});
