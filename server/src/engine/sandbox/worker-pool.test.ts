import { SandboxError, SandboxPool } from './index';

/** The SandboxError a batch fails with (the test fails if it succeeds or throws anything else). */
async function failure(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof SandboxError) return err;
    throw err;
  }
  throw new Error('the batch succeeded');
}

describe('SandboxPool: batches in worker threads', () => {
  let pool: SandboxPool;
  beforeAll(() => {
    pool = new SandboxPool({ size: 2, graceMs: 300 });
  });
  afterAll(() => pool.close());

  it('runs a batch in a worker and reuses the worker for the next', async () => {
    const result = await pool.runBatch({ code: 'return { ...record, b: record.a + 1 };', mode: 'per_record', records: [{ a: 1 }, { a: 2 }] });
    expect(result.records).toEqual([
      { a: 1, b: 2 },
      { a: 2, b: 3 },
    ]);
    await pool.runBatch({ code: 'return record;', mode: 'per_record', records: [{}] });
    expect(pool.workerCount).toBe(1);
  });

  it('hard-stops one long built-in call that QuickJS cannot interrupt, and replaces the worker', async () => {
    // indexOf over a huge array-like is one C loop that QuickJS's interrupt handler never sees
    // (alone in a CodeSandbox, 3e8 items take ~4 s and still succeed past a 200 ms limit).
    const code = 'return { i: Array.prototype.indexOf.call({ length: 1e10 }, 1) };';
    const started = Date.now();
    const error = await failure(pool.runBatch({ code, mode: 'per_record', records: [{}], limits: { timeoutMs: 200 } }));
    expect(error).toMatchObject({ code: 'timeout', values: { seconds: 0.2 } });
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await pool.runBatch({ code: 'return { ok: true };', mode: 'per_record', records: [{}] })).records).toEqual([{ ok: true }]);
  });

  it('keeps QuickJS’s own timeout, which names the record', async () => {
    const error = await failure(
      pool.runBatch({ code: 'if (record.a === 2) for (;;) {} return record;', mode: 'per_record', records: [{ a: 1 }, { a: 2 }], limits: { timeoutMs: 200 } }),
    );
    expect(error).toMatchObject({ code: 'timeout', recordIndex: 1 });
  });

  it('passes the sandbox’s typed errors through', async () => {
    const error = await failure(pool.runBatch({ code: '\nthrow new TypeError("nope");', mode: 'per_record', records: [{}] }));
    expect(error).toMatchObject({ code: 'thrown', recordIndex: 0, line: 2, values: { name: 'TypeError', message: 'nope' } });
  });

  it('stops a running batch at once when the run is cancelled', async () => {
    const controller = new AbortController();
    const running = pool.runBatch({ code: 'for (;;) {}', mode: 'per_record', records: [{}], limits: { timeoutMs: 20_000 }, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 300);
    const started = Date.now();
    await expect(running).rejects.toThrow('cancelled by the user');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('runs up to its size at once; the others wait their turn', async () => {
    const results = await Promise.all([1, 2, 3, 4].map((n) => pool.runBatch({ code: 'return { n: record.n };', mode: 'per_record', records: [{ n }] })));
    expect(results.map((r) => r.records[0].n)).toEqual([1, 2, 3, 4]);
    expect(pool.workerCount).toBeLessThanOrEqual(2);
  });

  it('lets a batch cancelled while waiting leave the queue without taking the next turn', async () => {
    const single = new SandboxPool({ size: 1 });
    try {
      const first = single.runBatch({ code: 'const end = Date.now() + 300; while (Date.now() < end) {} return { n: 1 };', mode: 'per_record', records: [{}] });
      const controller = new AbortController();
      const cancelled = single.runBatch({ code: 'return { n: 2 };', mode: 'per_record', records: [{}], signal: controller.signal });
      const third = single.runBatch({ code: 'return { n: 3 };', mode: 'per_record', records: [{}] });
      controller.abort(new Error('cancelled while waiting'));
      await expect(cancelled).rejects.toThrow('cancelled while waiting');
      expect((await first).records).toEqual([{ n: 1 }]);
      expect((await third).records).toEqual([{ n: 3 }]);
    } finally {
      await single.close();
    }
  });
});
