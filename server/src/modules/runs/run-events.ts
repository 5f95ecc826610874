import { EventEmitter } from 'node:events';
import Redis from 'ioredis';
import type { Log } from '../../lib/logger';

/**
 * Wakes up readers of a run's events (the server-sent events stream) when a new one is written.
 * The events themselves are rows (run_events); this only says "look again", so a lost wake-up
 * costs at most one polling interval. Across processes it goes through Redis pub/sub when
 * REDIS_URL is set (a worker on another machine runs the step, the API process streams it).
 */
export class RunEventBus {
  private readonly local = new EventEmitter();
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;

  constructor(private readonly options: { redisUrl: string | null; channel: string; log: Log }) {
    this.local.setMaxListeners(0);
  }

  notify(runId: string): void {
    this.local.emit(runId);
    if (!this.options.redisUrl) return;
    this.publisher ??= new Redis(this.options.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false });
    this.publisher.publish(this.options.channel, runId).catch((err) => this.options.log.warn({ err }, 'run events: could not publish'));
  }

  /** Resolves on the next event of the run, or after `timeoutMs`, or when `signal` aborts. */
  wait(runId: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    this.subscribe();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.local.off(runId, done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.local.once(runId, done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private subscribe(): void {
    if (!this.options.redisUrl || this.subscriber) return;
    this.subscriber = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    this.subscriber.subscribe(this.options.channel).catch((err) => this.options.log.warn({ err }, 'run events: could not subscribe'));
    this.subscriber.on('message', (_channel: string, runId: string) => this.local.emit(runId));
  }

  async close(): Promise<void> {
    await Promise.all([this.publisher?.quit().catch(() => undefined), this.subscriber?.quit().catch(() => undefined)]);
    this.publisher = null;
    this.subscriber = null;
  }
}
