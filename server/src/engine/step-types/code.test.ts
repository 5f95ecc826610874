import { SandboxPool } from '../sandbox';
import { StepRunFailed } from '../runners/execute';
import { createCodeRunner } from './code';
import { testRunContext } from '../../test/engine/per-record-test-context';

const pool = new SandboxPool({ size: 1, graceMs: 300 });
afterAll(() => pool.close());
const runner = createCodeRunner({ pool });

const people = [
  { _id: 'id-1', name: 'Ada', age: 36 },
  { _id: 'id-2', name: 'Lin', age: 17 },
  { _id: 'id-3', name: '李雷', age: 52 },
];

async function failure(promise: Promise<unknown>): Promise<StepRunFailed> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof StepRunFailed) return err;
    throw err;
  }
  throw new Error('the batch succeeded');
}

describe('the code step', () => {
  it('replaces records by what the code returns, keeping their _id', async () => {
    const ctx = testRunContext();
    const out = await runner.processBatch(ctx, people, { code: 'return { ...record, adult: record.age >= 18 };' });
    expect(out.rows).toEqual([
      { _id: 'id-1', name: 'Ada', age: 36, adult: true },
      { _id: 'id-2', name: 'Lin', age: 17, adult: false },
      { _id: 'id-3', name: '李雷', age: 52, adult: true },
    ]);
    expect(runner.output).toBe('replace');
  });

  it('drops records for null and fans out arrays; only the first copy keeps the _id', async () => {
    const out = await runner.processBatch(testRunContext(), people, {
      code: 'if (record.age < 18) return null;\nreturn [record, { ...record, copy: true }];',
    });
    expect(out.rows).toEqual([
      { _id: 'id-1', name: 'Ada', age: 36 },
      { name: 'Ada', age: 36, copy: true },
      { _id: 'id-3', name: '李雷', age: 52 },
      { name: '李雷', age: 52, copy: true },
    ]);
  });

  it('drops an _id the code makes up, so the writer gives the row a new one', async () => {
    const out = await runner.processBatch(testRunContext(), people.slice(0, 1), { code: 'return { _id: "made-up", n: 1 };' });
    expect(out.rows).toEqual([{ n: 1 }]);
  });

  it('runs once per batch in per_batch mode, with the workflow’s variables', async () => {
    const ctx = testRunContext({ vars: { bonus: 10 } });
    const out = await runner.processBatch(ctx, people, {
      mode: 'per_batch',
      code: 'const total = records.reduce((s, r) => s + r.age, 0);\nreturn records.map((r) => ({ _id: r._id, share: r.age / total, plus: r.age + vars.bonus }));',
    });
    expect(out.rows.map((r) => r.plus)).toEqual([46, 27, 62]);
    expect(out.rows[0]._id).toBe('id-1');
  });

  it('writes console lines to the run’s log, naming the record', async () => {
    const ctx = testRunContext();
    await runner.processBatch(ctx, people.slice(0, 2), { code: 'console.log("age", record.age); return record;' });
    expect(ctx.lines).toEqual(['console.log record “id-1”: age 36', 'console.log record “id-2”: age 17']);
  });

  it('fails the batch on a thrown error with its message, record and line', async () => {
    const error = await failure(
      runner.processBatch(testRunContext(), people, { code: 'if (record.name === "Lin") {\n  throw new Error("too young");\n}\nreturn record;' }),
    );
    expect(error.values).toEqual({ reason: 'The code threw Error: too young (record “id-2”, number 2 of its batch, line 2)' });
  });

  it('has no require, process or fetch', async () => {
    const out = await runner.processBatch(testRunContext(), people.slice(0, 1), { code: 'return { r: typeof require, p: typeof process, f: typeof fetch };' });
    expect(out.rows).toEqual([{ r: 'undefined', p: 'undefined', f: 'undefined' }]);
    const error = await failure(runner.processBatch(testRunContext(), people.slice(0, 1), { code: 'return require("fs");' }));
    expect(error.values.reason).toBe("The code threw ReferenceError: 'require' is not defined (record “id-1”, number 1 of its batch, line 1)");
  });

  it('stops an endless loop at the time limit', async () => {
    const started = Date.now();
    const error = await failure(runner.processBatch(testRunContext(), people, { code: 'while (true) {}', timeout_ms: 200 }));
    expect(error.values.reason).toBe('The code ran longer than its limit of 0.2 s for one batch (record “id-1”, number 1 of its batch)');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops one long built-in call at the time limit too (a hard stop)', async () => {
    const started = Date.now();
    const error = await failure(
      runner.processBatch(testRunContext(), people, { code: 'return { i: Array.prototype.indexOf.call({ length: 1e10 }, 1) };', timeout_ms: 200 }),
    );
    expect(error.values.reason).toBe('The code ran longer than its limit of 0.2 s for one batch');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('does not start a batch once the run is stopped', async () => {
    const ctx = testRunContext();
    ctx.controller.abort(new Error('paused'));
    await expect(runner.processBatch(ctx, people, { code: 'return record;' })).rejects.toThrow('paused');
  });

  it('checks its params before running', () => {
    expect(() => runner.outputColumns([[{ name: '_id', type: 'VARCHAR' }]], { code: 'return record;', timeout_ms: 50 })).toThrow(
      expect.objectContaining({ problems: [expect.objectContaining({ key: 'server.params.minimum', loc: ['timeout_ms'] })] }),
    );
    expect(runner.outputColumns([[{ name: '_id', type: 'VARCHAR' }]], { code: 'return record;' })).toEqual([]);
  });
});
