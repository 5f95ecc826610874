import Redis from 'ioredis';
import { createTestApp, onPostgres, type TestApp } from '../test/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The composition root as the app gets it (plugins/core.ts): `app.jobs` is the configured queue, and closing the app lets running jobs finish on an open database. */
describe('core plugin', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((t) => t.close().catch(() => undefined)));
    if (onPostgres() && process.env.TEST_REDIS_URL) {
      const redis = new Redis(process.env.TEST_REDIS_URL);
      for (const t of apps) {
        const keys = await redis.keys(`${t.appOptions.redisNamespace}:queue:*`);
        if (keys.length) await redis.del(...keys);
      }
      await redis.quit();
    }
  });
  const app = async (env: Record<string, string> = {}) => {
    const t = await createTestApp(env);
    apps.push(t);
    return t;
  };

  // Over Jest’s 5 s at worst: builds two whole apps (2.4 s on a loaded 2-core machine).
  it('is BullMQ when REDIS_URL is set, in memory otherwise or when QUEUE_BACKEND=memory', async () => {
    const t = await app();
    expect(t.app.jobs.kind).toBe(t.config.redisUrl ? 'bullmq' : 'memory');
    expect((await app({ QUEUE_BACKEND: 'memory' })).app.jobs.kind).toBe('memory');
  }, 20_000);

  // Over Jest’s 5 s at worst: builds a whole app and closes it around a running job (2.3 s on a loaded 2-core machine).
  it('closing the app waits for a running job, which can still use the database', async () => {
    const t = await app();
    let started = false;
    let result: unknown = null;
    t.app.jobs.process('slow', async () => {
      started = true;
      await sleep(300);
      try {
        result = await t.app.db.selectFrom('users').select('id').execute();
      } catch (err) {
        result = err;
      }
    });
    await t.app.jobs.enqueue('slow', {});
    const until = Date.now() + 10_000;
    while (!started && Date.now() < until) await sleep(10);
    expect(started).toBe(true);

    await t.app.close();
    expect(result).toEqual([]);
  }, 20_000);
});
