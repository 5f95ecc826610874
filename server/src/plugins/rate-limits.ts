import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import Redis from 'ioredis';

export interface RateLimitOptions {
  /** Key prefix in Redis, so test apps sharing one Redis do not count each other's calls. */
  redisNamespace?: string;
}

/**
 * Limits are opt-in per route (`config.rateLimit`). Counters live in memory for one process, or in
 * Redis when REDIS_URL is set so every API process counts the same attempts.
 */
export default fp<RateLimitOptions>(
  async (app, options) => {
    const redis = app.config.redisUrl ? new Redis(app.config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1 }) : null;
    if (redis) app.addHook('onClose', async () => void (await redis.quit()));
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { redis, nameSpace: `${options.redisNamespace ?? 'stepwise'}:rate-limit:` } : {}),
      // The error handler turns this into {detail} in the caller's language.
      errorResponseBuilder: (_req, context) => ({ statusCode: context.statusCode, code: 'RATE_LIMITED', message: 'Too many requests' }),
    });
  },
  { name: 'rate-limits' },
);
