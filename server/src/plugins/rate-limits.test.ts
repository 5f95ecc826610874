import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import Redis from 'ioredis';
import { buildApp } from '../app';
import { createTestApp, logIn, onPostgres, type TestApp } from '../test/test-app';
import { rateLimitNamespace, redisRateLimitStore } from './rate-limits';

describe('rate-limit keys', () => {
  it('start with the installation’s prefix (QUEUE_PREFIX), then a test app’s own namespace', () => {
    expect(rateLimitNamespace('stepwise', undefined)).toBe('stepwise:rate-limit:');
    expect(rateLimitNamespace('acme', undefined)).toBe('acme:rate-limit:');
    expect(rateLimitNamespace('acme', 'test-1a2b')).toBe('acme:test-1a2b:rate-limit:');
  });

  it('name the route of a route’s limit and nothing undefined for a limiter made by createRateLimit', async () => {
    const keys: string[] = [];
    const redis = { eval: async (_script: string, _keys: number, key: string) => (keys.push(key), [1, 1000]) } as unknown as Redis;
    const Store = redisRateLimitStore(redis, 'acme:rate-limit:');
    const store = new Store({});
    const incr = (s: FastifyRateLimitStore, key: string) =>
      new Promise((resolve, reject) => s.incr(key, (err, res) => (err ? reject(err) : resolve(res)), 1000, 5));
    // What @fastify/rate-limit passes: a route's options for a route's limit, `{}` for createRateLimit's.
    type ChildOptions = Parameters<FastifyRateLimitStore['child']>[0];
    const routeLimit = store.child({ routeInfo: { method: 'POST', url: '/api/v1/auth/login' } } as unknown as ChildOptions);
    const standalone = store.child({ routeInfo: {} } as unknown as ChildOptions);
    expect(await incr(routeLimit, 'login:127.0.0.1:ada@example.com')).toEqual({ current: 1, ttl: 1000 });
    await incr(standalone, 'login-address:127.0.0.1');
    expect(keys).toEqual(['acme:rate-limit:POST:/api/v1/auth/login:login:127.0.0.1:ada@example.com', 'acme:rate-limit:login-address:127.0.0.1']);
  });
});

// Two installations on one Redis (QUEUE_PREFIX tells them apart) must not count each other's
// attempts. The server-postgres project has a Redis; the SQLite one keeps counters in memory.
(onPostgres() ? describe : describe.skip)('rate limits of two installations on one Redis', () => {
  let t: TestApp;
  let redis: Redis;
  const apps: FastifyInstance[] = [];
  const run = randomBytes(4).toString('hex');
  const [first, second] = [`test-limits-a-${run}`, `test-limits-b-${run}`];

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_ADDRESS_MAX: '3' });
    redis = new Redis(t.config.redisUrl!);
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    for (const prefix of [first, second]) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
    }
    await redis.quit();
    await t.close();
  });

  /** An installation as `npm run serve` builds it: no test namespace, only its QUEUE_PREFIX. */
  async function installation(prefix: string) {
    const app = await buildApp({ config: { ...t.config, queue: { ...t.config.queue, prefix } }, logger: false });
    apps.push(app);
    return app;
  }
  const attempt = (app: FastifyInstance) => logIn(app, `nobody-${randomBytes(3).toString('hex')}@example.com`, 'not the password');

  it('counts per installation: an address blocked on one is not blocked on the other', async () => {
    const a = await installation(first);
    const b = await installation(second);
    for (let i = 0; i < 3; i++) expect((await attempt(a)).statusCode).toBe(401);
    expect((await attempt(a)).statusCode).toBe(429);
    expect((await attempt(b)).statusCode).toBe(401);
    // Another process of the same installation counts the same attempts.
    expect((await attempt(await installation(first))).statusCode).toBe(429);
    // Over Jest's 5 s at worst: builds three whole apps (each migrates and connects to Redis).
  }, 30_000);

  it('keeps every counter under the prefix, with no "undefined" in a key', async () => {
    const keys = (await redis.keys(`${first}:*`)).filter((key) => key.includes('rate-limit'));
    expect(keys).toContain(`${first}:rate-limit:login-address:127.0.0.1`);
    // One per email tried (the blocked attempts stopped at the address limit, before this one).
    expect(keys.filter((key) => key.startsWith(`${first}:rate-limit:POST:/api/v1/auth/login:login:127.0.0.1:nobody-`))).toHaveLength(3);
    expect(keys.every((key) => key.startsWith(`${first}:rate-limit:`) && !key.includes('undefined'))).toBe(true);
  });
});
