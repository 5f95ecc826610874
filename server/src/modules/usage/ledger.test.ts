import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { toMicro } from './ledger';
import { UsageCharges, type ChargedStep } from './usage-charges';

/*
 * The ledger under concurrent writers, on the test's database (SQLite here, PostgreSQL in the
 * server-postgres project): many debits at once all count, the same movement written at once by
 * several writers is one row, and the balance is always the sum of the rows.
 */
describe('credit ledger under concurrent writers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ STEP_PRICES: '{"code": 0.5}', AI_TOKEN_PRICE_PER_1K: '2' });
  });
  afterAll(async () => t?.close());

  const rowsOf = (userId: string) =>
    t.app.db.selectFrom('credit_ledger').select(['kind', 'credits_micro', 'idempotency_key']).where('user_id', '=', userId).execute();

  it('counts every one of many debits appended at once', async () => {
    const { user } = await signedInUser(t.app);
    const debits = Array.from({ length: 60 }, (_, i) =>
      t.app.credits.append([{ userId: user.id, kind: 'usage', creditsMicro: -toMicro(0.25), idempotencyKey: `test:${user.id}:${i}` }]),
    );
    const added = await Promise.all(debits);
    expect(added.every((a) => a.length === 1)).toBe(true);
    const rows = await rowsOf(user.id);
    expect(rows.filter((r) => r.kind === 'usage')).toHaveLength(60);
    expect(await t.app.credits.balanceMicro(user.id)).toBe(toMicro(100 - 60 * 0.25));
    expect(await t.app.credits.balanceMicro(user.id)).toBe(rows.reduce((n, r) => n + Number(r.credits_micro), 0));
  });

  it('keeps one row when the same movement is appended by many writers at once', async () => {
    const { user } = await signedInUser(t.app);
    const same = { userId: user.id, kind: 'usage' as const, creditsMicro: -toMicro(7), idempotencyKey: `test:${user.id}:same` };
    const added = await Promise.all(Array.from({ length: 25 }, () => t.app.credits.append([same])));
    expect(added.filter((a) => a.length === 1)).toHaveLength(1);
    expect((await rowsOf(user.id)).filter((r) => r.idempotency_key === same.idempotencyKey)).toHaveLength(1);
    expect(await t.app.credits.balanceMicro(user.id)).toBe(toMicro(93));
  });

  it('charges a batch redone by two workers at once (a crash redo, a job taken over) once', async () => {
    const { user } = await signedInUser(t.app);
    const charges = new UsageCharges(t.app.db, t.config.billing);
    const step: ChargedStep = {
      userId: user.id,
      workflowId: 'wf',
      stepId: 'st',
      stepType: 'code',
      stepName: 'Clean',
      runId: 'run',
      stepRunId: `sr-${user.id}`,
    };
    const used = [
      { kind: 'ai_tokens_in', quantity: 300, key: 'r1' },
      { kind: 'ai_tokens_out', quantity: 200, key: 'r1' },
    ];
    // Batches 0..9 of one step run, each charged by two writers concurrently.
    const ids = new Set(['r1', 'r2', 'r3', 'r4']);
    await Promise.all(Array.from({ length: 20 }, (_, i) => charges.chargeBatch(step, i % 10, ids, used)));
    const rows = await t.app.db
      .selectFrom('credit_ledger')
      .select(['unit', 'quantity', 'credits_micro', 'unit_price_micro'])
      .where('step_run_id', '=', step.stepRunId)
      .execute();
    expect(rows.filter((r) => r.unit === 'record')).toHaveLength(10);
    expect(rows.filter((r) => r.unit === 'token')).toHaveLength(10);
    // 4 records × 0.5 + 500 tokens × 2/1000 = 3 credits per batch.
    expect(await t.app.credits.balanceMicro(user.id)).toBe(toMicro(100 - 10 * 3));
    expect(rows.find((r) => r.unit === 'record')).toMatchObject({ quantity: 4, credits_micro: -toMicro(2), unit_price_micro: toMicro(0.5) });
  });
});
