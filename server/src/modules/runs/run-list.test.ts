import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';

/*
 * GET /workflow-runs/ across workflows (the executions page) and for one (the run history): runs
 * with their workflow's name, duration, records, cost and who started them, filtered by workflow
 * and state, never another user's. Runs, step runs and ledger rows are planted as the engine and
 * the charges leave them, so each figure is known.
 */
describe('the list of runs', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let stranger: Awaited<ReturnType<typeof signedInUser>>;
  let orders: string;
  let leads: string;
  let strangers: string;
  let seq = 0;

  const api = (who: { auth: Record<string, string> }, url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: who.auth });
  const loose = () => t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>;

  /** A run planted as the engine leaves it: its step runs' record counts and the usage rows charged for it. */
  async function plant(
    userId: string,
    workflowId: string,
    run: { state: string; startedBy?: string; durationMs?: number | null; records?: number[]; chargesMicro?: number[]; reason?: string | null },
  ) {
    const id = randomUUID();
    // Each planted run a second after the one before: the list's order is known.
    const created = new Date(Date.UTC(2026, 10, 20, 10, 0, seq++)).toISOString();
    const ended = run.durationMs === undefined || run.durationMs === null ? null : new Date(Date.parse(created) + run.durationMs).toISOString();
    await loose()
      .insertInto('workflow_runs')
      .values({
        id,
        workflow_id: workflowId,
        user_id: userId,
        workflow_version: 1,
        snapshot: '{"steps":[],"variables":[],"external":{}}',
        mode: 'all',
        target_step_id: null,
        sample_size: null,
        state: run.state,
        state_reason: run.reason ?? null,
        started_by: run.startedBy ?? 'user',
        created_at: created,
        updated_at: created,
        started_at: created,
        ended_at: ended,
      })
      .execute();
    for (const [i, done] of (run.records ?? []).entries())
      await loose()
        .insertInto('step_runs')
        .values({
          id: randomUUID(),
          run_id: id,
          step_id: `s${i}`,
          step_type: 'filter',
          params_hash: 'p',
          cache_key: 'k',
          input_dataset_ids: '[]',
          state: 'succeeded',
          records_done: done,
          created_at: created,
          updated_at: created,
        })
        .execute();
    for (const [i, micro] of (run.chargesMicro ?? []).entries())
      await loose()
        .insertInto('credit_ledger')
        .values({
          id: randomUUID(),
          user_id: userId,
          kind: 'usage',
          credits_micro: -micro,
          idempotency_key: `${id}:${i}`,
          workflow_id: workflowId,
          run_id: id,
          created_at: created,
        })
        .execute();
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    stranger = await signedInUser(t.app);
    orders = (await workflowClient(t.app, owner.auth).createWorkflow('Orders')).id;
    leads = (await workflowClient(t.app, owner.auth).createWorkflow('Leads')).id;
    strangers = (await workflowClient(t.app, stranger.auth).createWorkflow('Not yours')).id;
  });
  afterAll(() => t.close());

  it("lists the caller's runs across their workflows, newest first, with duration, records, cost and who started them", async () => {
    const first = await plant(owner.user.id, orders, { state: 'succeeded', durationMs: 90_500, records: [1000, 10, 10], chargesMicro: [1_500_000, 250_000] });
    const second = await plant(owner.user.id, leads, { state: 'running', startedBy: 'agent', records: [40] });
    const third = await plant(owner.user.id, orders, { state: 'failed', reason: 'error', durationMs: 2000, chargesMicro: [2_000] });
    // Another user's run, charged too, and a grant that names no run: neither counts.
    await plant(stranger.user.id, strangers, { state: 'succeeded', durationMs: 10, records: [5], chargesMicro: [9_000_000] });
    await loose()
      .insertInto('credit_ledger')
      .values({
        id: randomUUID(),
        user_id: owner.user.id,
        kind: 'grant',
        credits_micro: 50_000_000,
        idempotency_key: randomUUID(),
        created_at: new Date().toISOString(),
      })
      .execute();

    const res = await api(owner, '/workflow-runs/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 3, page: 1, page_size: 20 });
    expect(body.items.map((r: { id: string }) => r.id)).toEqual([third, second, first]);
    expect(body.items[0]).toMatchObject({
      workflow_id: orders,
      workflow_name: 'Orders',
      state: 'failed',
      state_reason: { code: 'error', message: expect.any(String) },
      duration_ms: 2000,
      records: 0,
      cost_credits: 0.002,
      started_by: 'user',
    });
    expect(body.items[1]).toMatchObject({ workflow_name: 'Leads', state: 'running', duration_ms: null, records: 40, cost_credits: 0, started_by: 'agent' });
    // Records: the most any step processed (the source's 1,000, not the 10 kept); cost: every charge of the run.
    expect(body.items[2]).toMatchObject({
      workflow_name: 'Orders',
      state: 'succeeded',
      duration_ms: 90_500,
      records: 1000,
      cost_credits: 1.75,
      ended_at: expect.any(String),
    });

    // One workflow's run history carries the same figures.
    const history = (await api(owner, `/workflow-runs/?workflow_id=${orders}`)).json();
    expect(history.items.map((r: { id: string }) => r.id)).toEqual([third, first]);
    expect(history.items[1]).toMatchObject({ records: 1000, cost_credits: 1.75 });
  });

  it('filters by one or more states and by workflow, and pages', async () => {
    const running = (await api(owner, '/workflow-runs/?state=running')).json();
    expect(running.items.map((r: { state: string }) => r.state)).toEqual(['running']);
    expect(running.total).toBe(1);

    const ended = (await api(owner, '/workflow-runs/?state=failed&state=succeeded')).json();
    expect(ended.total).toBe(2);
    expect(new Set(ended.items.map((r: { state: string }) => r.state))).toEqual(new Set(['failed', 'succeeded']));

    const both = (await api(owner, `/workflow-runs/?workflow_id=${orders}&state=succeeded`)).json();
    expect(both.items).toHaveLength(1);
    expect(both.items[0]).toMatchObject({ workflow_id: orders, state: 'succeeded' });

    expect((await api(owner, '/workflow-runs/?state=cancelled')).json()).toMatchObject({ items: [], total: 0 });

    const page2 = (await api(owner, '/workflow-runs/?page=2&page_size=2')).json();
    expect(page2).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(page2.items).toHaveLength(1);
    expect(page2.items[0].workflow_name).toBe('Orders');
  });

  it("never shows another user's runs, not even by their workflow's id", async () => {
    const mine = (await api(stranger, '/workflow-runs/')).json();
    expect(mine.total).toBe(1);
    expect(mine.items[0]).toMatchObject({ workflow_name: 'Not yours', cost_credits: 9, records: 5 });
    expect((await api(stranger, `/workflow-runs/?workflow_id=${orders}`)).json()).toMatchObject({ items: [], total: 0 });
    expect((await api(owner, `/workflow-runs/?workflow_id=${strangers}`)).json()).toMatchObject({ items: [], total: 0 });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/workflow-runs/' })).statusCode).toBe(401);
  });

  it('refuses bad filters with 422 in the errors-list shape', async () => {
    for (const url of [
      '/workflow-runs/?state=sideways',
      '/workflow-runs/?state=running&state=nope',
      `/workflow-runs/?${Array.from({ length: 9 }, () => 'state=running').join('&')}`,
      '/workflow-runs/?page_size=101',
      '/workflow-runs/?page=0',
      '/workflow-runs/?workflow_id=' + 'x'.repeat(100),
      '/workflow-runs/?workflow_id=',
      '/workflow-runs/?surprise=1',
    ]) {
      const res = await api(owner, url);
      expect([url, res.statusCode]).toEqual([url, 422]);
      expect(res.json().errors[0]).toEqual({ msg: expect.any(String), loc: expect.any(Array) });
    }
  });
});
