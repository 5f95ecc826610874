import { abortableSleep } from './retries';

/**
 * The two brakes of a per-record step: a token bucket (requests per second, with a small burst)
 * so a run does not hammer someone's API, and a concurrency limit so it holds only so many
 * connections open at once.
 */

export interface RateLimiterOptions {
  /** Requests per second, on average; 0 or less means unlimited. */
  perSecond: number;
  /** Requests that may go at once after a quiet spell (default 1: evenly spaced). */
  burst?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export class RateLimiter {
  private tokens: number;
  private last: number;
  private readonly capacity: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Waiters queue here so tokens go out in arrival order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: RateLimiterOptions) {
    this.capacity = Math.max(1, options.burst ?? 1);
    this.tokens = this.capacity;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableSleep;
    this.last = this.now();
  }

  /** Resolves when a request may go. */
  take(signal?: AbortSignal): Promise<void> {
    if (this.options.perSecond <= 0) return Promise.resolve();
    const turn = this.queue.then(() => this.takeNow(signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async takeNow(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.now();
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.options.perSecond);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.sleep(Math.ceil(((1 - this.tokens) / this.options.perSecond) * 1000), signal);
    }
  }
}

/** Runs at most `concurrency` tasks at a time; the others wait their turn in order. */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive integer');
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot jump the queue.
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * The limits of one step run: one token bucket and one concurrency limit shared by all its batches
 * (a runner with `overlapBatches` has two running at once), so the rate and the calls at once hold
 * across batches: a bucket per batch would let each batch's first call go at once, a limit per
 * batch would double the calls at once. Kept in this process for the most recent step runs (a
 * step run of an older one gets new limits: the worst is one burst).
 */
export function stepRunLimits(stepRunId: string, wanted: { perSecond: number; concurrency: number }): { rate: RateLimiter; calls: ConcurrencyLimiter } {
  const known = limitsByStepRun.get(stepRunId);
  if (known && known.perSecond === wanted.perSecond && known.concurrency === wanted.concurrency) return known;
  const limits = { ...wanted, rate: new RateLimiter({ perSecond: wanted.perSecond }), calls: new ConcurrencyLimiter(wanted.concurrency) };
  limitsByStepRun.delete(stepRunId);
  limitsByStepRun.set(stepRunId, limits);
  if (limitsByStepRun.size > MAX_STEP_RUNS_LIMITED) limitsByStepRun.delete(limitsByStepRun.keys().next().value!);
  return limits;
}

const limitsByStepRun = new Map<string, { perSecond: number; concurrency: number; rate: RateLimiter; calls: ConcurrencyLimiter }>();
const MAX_STEP_RUNS_LIMITED = 256;
