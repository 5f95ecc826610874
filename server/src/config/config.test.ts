import { loadConfig } from './config';

describe('queue configuration', () => {
  it('keeps jobs in memory by default and in BullMQ once REDIS_URL is set, unless told otherwise', () => {
    expect(loadConfig({}).queue).toEqual({ backend: 'memory', concurrency: 4, prefix: 'stepwise', lockDurationMs: 30_000, stalledIntervalMs: 30_000, maxStalledCount: 2 });
    expect(loadConfig({ REDIS_URL: 'redis://r:6379' }).queue.backend).toBe('bullmq');
    expect(loadConfig({ REDIS_URL: 'redis://r:6379', QUEUE_BACKEND: 'memory' }).queue.backend).toBe('memory');
  });

  it('reads the concurrency and BullMQ timings, within bounds', () => {
    const queue = loadConfig({ QUEUE_CONCURRENCY: '8', QUEUE_PREFIX: 'acme', QUEUE_LOCK_DURATION_MS: '5000', QUEUE_STALLED_INTERVAL_MS: '2000', QUEUE_MAX_STALLED_COUNT: '0' }).queue;
    expect(queue).toMatchObject({ concurrency: 8, prefix: 'acme', lockDurationMs: 5000, stalledIntervalMs: 2000, maxStalledCount: 0 });
    expect(loadConfig({ QUEUE_CONCURRENCY: '0' }).queue.concurrency).toBe(1);
    expect(loadConfig({ QUEUE_CONCURRENCY: '100000' }).queue.concurrency).toBe(256);
  });

  it('refuses a backend it does not know, and BullMQ without Redis', () => {
    expect(() => loadConfig({ QUEUE_BACKEND: 'sqs' })).toThrow(/QUEUE_BACKEND/);
    expect(() => loadConfig({ QUEUE_BACKEND: 'bullmq' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ QUEUE_CONCURRENCY: 'many' })).toThrow(/QUEUE_CONCURRENCY/);
  });
});
