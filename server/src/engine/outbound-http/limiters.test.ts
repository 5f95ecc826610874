import { ConcurrencyLimiter, RateLimiter } from './limiters';

describe('RateLimiter', () => {
  it('spaces requests to the rate, after the burst', async () => {
    let clock = 0;
    const waits: number[] = [];
    const limiter = new RateLimiter({
      perSecond: 4,
      burst: 2,
      now: () => clock,
      sleep: (ms) => {
        waits.push(ms);
        clock += ms;
        return Promise.resolve();
      },
    });
    const times: number[] = [];
    await Promise.all([1, 2, 3, 4, 5].map(() => limiter.take().then(() => times.push(clock))));
    expect(times).toEqual([0, 0, 250, 500, 750]);
    expect(waits).toEqual([250, 250, 250]);
  });

  it('is a no-op without a rate', async () => {
    const limiter = new RateLimiter({ perSecond: 0, sleep: () => Promise.reject(new Error('should not wait')) });
    await Promise.all([limiter.take(), limiter.take(), limiter.take()]);
  });
});

describe('ConcurrencyLimiter', () => {
  it('runs at most n tasks at once, in order', async () => {
    const limiter = new ConcurrencyLimiter(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (i: number) => async () => {
      started.push(i);
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 10));
      running--;
      return i;
    };
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => limiter.run(task(i))));
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
  });

  it('frees the slot when a task fails', async () => {
    const limiter = new ConcurrencyLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
