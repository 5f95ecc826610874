import fp from 'fastify-plugin';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import Redis from 'ioredis';

export interface RateLimitOptions {
  /** Tests: a key namespace of their own under the prefix, so test apps sharing one Redis do not count each other's calls. */
  redisNamespace?: string;
}

/**
 * Where an installation's counters live in Redis: under its QUEUE_PREFIX, like its job queues and
 * run events, so two installations on one Redis never count (or block) each other's attempts.
 */
export const rateLimitNamespace = (installationPrefix: string, testNamespace: string | undefined): string =>
  `${[installationPrefix, testNamespace, 'rate-limit'].filter(Boolean).join(':')}:`;

/** One atomic step: count the attempt, start the window on the first (or on a counter left without one). */
const INCREMENT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

/** What @fastify/rate-limit hands a store's `child`: the merged options, with the route's (empty for createRateLimit). */
interface ChildOptions {
  routeInfo?: { method?: unknown; url?: unknown };
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}

/**
 * The Redis store, ours instead of the plugin's, for its keys: the plugin's prefixes a limiter made
 * by `createRateLimit` (no route) with `${undefined}${undefined}-`. Here a route's limit is keyed
 * `<namespace><METHOD>:<url>:<key>`, a standalone limiter's `<namespace><key>` (its keys name
 * themselves: `login-address:…`, `contact-submit:…`). Fixed windows only, which is all the routes use.
 */
export function redisRateLimitStore(redis: Redis, namespace: string) {
  return class RedisRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: object,
      private readonly prefix = namespace,
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      redis.eval(INCREMENT, 1, `${this.prefix}${key}`, timeWindow).then(
        (answer) => {
          const [current, ttl] = answer as [number, number];
          callback(null, { current, ttl });
        },
        (err: Error) => callback(err),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const options = routeOptions as unknown as ChildOptions;
      if (options.continueExceeding || options.exponentialBackoff) throw new Error('rate limits: continueExceeding and exponentialBackoff are not supported');
      const { method, url } = options.routeInfo ?? {};
      return new RedisRateLimitStore(options, method && url ? `${namespace}${String(method)}:${String(url)}:` : namespace);
    }
  };
}

/**
 * Limits are opt-in per route (`config.rateLimit`). Counters live in memory for one process, or in
 * Redis when REDIS_URL is set so every API process of the installation counts the same attempts.
 */
export default fp<RateLimitOptions>(
  async (app, options) => {
    const redis = app.config.redisUrl ? new Redis(app.config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1 }) : null;
    if (redis) app.addHook('onClose', async () => void (await redis.quit()));
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { store: redisRateLimitStore(redis, rateLimitNamespace(app.config.queue.prefix, options.redisNamespace)) } : {}),
      // The error handler turns this into {detail} in the caller's language.
      errorResponseBuilder: (_req, context) => ({ statusCode: context.statusCode, code: 'RATE_LIMITED', message: 'Too many requests' }),
    });
  },
  { name: 'rate-limits' },
);
