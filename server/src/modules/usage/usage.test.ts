import { randomUUID } from 'node:crypto';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';
import { toMicro } from './ledger';

/*
 * The Usage calls through the API on the real database: the sign-up grant, usage records with
 * paging and filters, summaries with every period of the range, prices from configuration, the
 * estimate and the 402 before a run, admins' adjustments and their roles, and hostile inputs.
 */
describe('usage and credits', () => {
  let t: TestApp;
  const ADMIN = `boss-${randomUUID().slice(0, 8)}@example.com`;

  beforeAll(async () => {
    t = await createTestApp({ STEP_PRICES: '{"sort": 500, "ai_prompt": 2.5}', ADMIN_EMAILS: ADMIN });
  });
  afterAll(async () => t?.close());

  const as = (who: { auth: Record<string, string> } | null) => (method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: who?.auth ?? {}, payload });

  /** A usage row as the run engine writes it, at a chosen time. */
  async function usageRow(userId: string, at: string, fields: { workflowId?: string; stepType?: string; credits: number; quantity?: number }) {
    await t.app.db
      .insertInto('credit_ledger')
      .values({
        id: randomUUID(),
        user_id: userId,
        kind: 'usage',
        credits_micro: -toMicro(fields.credits),
        idempotency_key: `test:${randomUUID()}`,
        description: 'Step',
        unit: 'record',
        quantity: fields.quantity ?? 1,
        unit_price_micro: toMicro(fields.credits),
        workflow_id: fields.workflowId ?? null,
        step_id: null,
        step_type: fields.stepType ?? 'code',
        run_id: null,
        step_run_id: null,
        payment_id: null,
        actor_id: null,
        created_at: at,
      })
      .execute();
  }

  it('grants the sign-up credits once and answers the balance', async () => {
    const owner = await signedInUser(t.app);
    const api = as(owner);
    expect((await api('GET', '/balance/')).json()).toEqual({ balance: 100, billing_enabled: true, paused_runs: 0 });
    const entries = (await api('GET', '/balance/entries')).json();
    expect(entries).toMatchObject({ total: 1, page: 1, items: [{ kind: 'grant', credits: 100, description: 'Welcome credits', payment_id: null }] });
    expect(await t.app.credits.ledger.has(`signup:${owner.user.id}`)).toBe(true);
    expect((await as(null)('GET', '/balance/')).statusCode).toBe(401);
  });

  it('lists usage records newest first, paged, filtered by dates and workflow, and only the caller’s', async () => {
    const owner = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const wf = workflowClient(t.app, owner.auth);
    const a = (await wf.createWorkflow('Invoices')).id as string;
    const b = (await wf.createWorkflow('Leads')).id as string;
    await usageRow(owner.user.id, '2026-03-01T10:00:00.000Z', { workflowId: a, credits: 1 });
    await usageRow(owner.user.id, '2026-03-02T10:00:00.000Z', { workflowId: a, credits: 2 });
    await usageRow(owner.user.id, '2026-03-03T23:59:59.000Z', { workflowId: b, credits: 3 });
    await usageRow(owner.user.id, '2026-03-04T00:00:00.000Z', { workflowId: b, credits: 4 });
    await usageRow(other.user.id, '2026-03-02T10:00:00.000Z', { workflowId: a, credits: 50 });
    const api = as(owner);

    const first = (await api('GET', '/usage-records/?page=1&page_size=3')).json();
    expect(first).toMatchObject({ total: 4, page: 1, page_size: 3 });
    expect(first.items.map((r: { credits: number }) => r.credits)).toEqual([4, 3, 2]);
    expect(first.items[0]).toMatchObject({ unit: 'record', quantity: 1, unit_price: 4, workflow_id: b, workflow_name: 'Leads', step_type: 'code' });
    expect((await api('GET', '/usage-records/?page=2&page_size=3')).json().items.map((r: { credits: number }) => r.credits)).toEqual([1]);

    const byWorkflow = (await api('GET', `/usage-records/?workflow_id=${a}`)).json();
    expect(byWorkflow.items.map((r: { credits: number }) => r.credits)).toEqual([2, 1]);
    // Both dates inclusive, whole days (UTC).
    const byDates = (await api('GET', '/usage-records/?start_date=2026-03-02&end_date=2026-03-03')).json();
    expect(byDates.items.map((r: { credits: number }) => r.credits)).toEqual([3, 2]);
    // Another user's workflow filters to nothing.
    expect((await as(other)('GET', `/usage-records/?workflow_id=${b}`)).json().total).toBe(0);
  });

  it('sums usage per day, week or month, every period of the range included, by workflow or step type', async () => {
    const owner = await signedInUser(t.app);
    const wf = workflowClient(t.app, owner.auth);
    const a = (await wf.createWorkflow('Invoices')).id as string;
    await usageRow(owner.user.id, '2026-01-05T08:00:00.000Z', { workflowId: a, stepType: 'ai_prompt', credits: 1.5 });
    await usageRow(owner.user.id, '2026-01-05T09:00:00.000Z', { workflowId: a, stepType: 'http_request', credits: 0.25 });
    await usageRow(owner.user.id, '2026-01-07T09:00:00.000Z', { workflowId: a, stepType: 'ai_prompt', credits: 2 });
    await usageRow(owner.user.id, '2026-02-02T09:00:00.000Z', { workflowId: a, stepType: 'ai_prompt', credits: 10 });
    const api = as(owner);

    const days = (await api('GET', '/balance/usage-summary?start_date=2026-01-04&end_date=2026-01-08')).json();
    expect(days).toMatchObject({ period: 'day', group_by: 'workflow', start_date: '2026-01-04', end_date: '2026-01-08', total_credits: 3.75 });
    expect(days.buckets).toEqual([
      { start: '2026-01-04', credits: 0, groups: {} },
      { start: '2026-01-05', credits: 1.75, groups: { [a]: 1.75 } },
      { start: '2026-01-06', credits: 0, groups: {} },
      { start: '2026-01-07', credits: 2, groups: { [a]: 2 } },
      { start: '2026-01-08', credits: 0, groups: {} },
    ]);
    expect(days.groups).toEqual([{ key: a, label: 'Invoices', credits: 3.75 }]);

    // Weeks start on Monday (2026-01-05 is one); the range's first week starts before it.
    const weeks = (await api('GET', '/balance/usage-summary?period=week&group_by=step_type&start_date=2026-01-01&end_date=2026-02-03')).json();
    expect(weeks.buckets.map((b: { start: string; credits: number }) => [b.start, b.credits])).toEqual([
      ['2025-12-29', 0],
      ['2026-01-05', 3.75],
      ['2026-01-12', 0],
      ['2026-01-19', 0],
      ['2026-01-26', 0],
      ['2026-02-02', 10],
    ]);
    expect(weeks.groups).toEqual([
      { key: 'ai_prompt', label: 'AI prompt', credits: 13.5 },
      { key: 'http_request', label: expect.any(String), credits: 0.25 },
    ]);

    const months = (await api('GET', '/balance/usage-summary?period=month&start_date=2025-12-15&end_date=2026-03-01')).json();
    expect(months.buckets.map((b: { start: string; credits: number }) => [b.start, b.credits])).toEqual([
      ['2025-12-01', 0],
      ['2026-01-01', 3.75],
      ['2026-02-01', 10],
      ['2026-03-01', 0],
    ]);
    // Without dates: the last 30 days, today included.
    const recent = (await api('GET', '/balance/usage-summary')).json();
    expect(recent.buckets).toHaveLength(30);
    expect(recent.total_credits).toBe(0);
  });

  it('refuses hostile inputs with 422', async () => {
    const api = as(await signedInUser(t.app));
    for (const url of [
      '/usage-records/?start_date=2026-02-30',
      '/usage-records/?start_date=2026-1-1',
      "/usage-records/?start_date=2026-01-01'--",
      '/usage-records/?start_date=2020-01-01&end_date=2026-01-01',
      '/usage-records/?start_date=2026-01-02&end_date=2026-01-01',
      '/usage-records/?page_size=1000',
      '/usage-records/?page=0',
      '/usage-records/?workflow_id=' + 'x'.repeat(100),
      '/usage-records/?surprise=1',
      '/balance/usage-summary?period=year',
      '/balance/usage-summary?group_by=user',
      '/balance/usage-summary?start_date=2024-01-01&end_date=2026-01-01',
      '/balance/entries?kind=gift',
      '/balance/entries?page_size=1e309',
    ]) {
      const res = await api('GET', url);
      expect([url, res.statusCode]).toEqual([url, 422]);
      expect(res.json().errors[0]).toEqual({ msg: expect.any(String), loc: expect.any(Array) });
    }
  });

  it('serves configured prices in the price list and the catalogue', async () => {
    const api = as(await signedInUser(t.app));
    const prices = (await api('GET', '/balance/prices')).json();
    expect(prices).toMatchObject({ billing_enabled: true, ai_token_price_per_1k: 0.02 });
    const price = (type: string) => prices.steps.find((s: { step_type: string }) => s.step_type === type);
    expect(price('ai_prompt')).toEqual({ step_type: 'ai_prompt', per: 'record', credits: 2.5 });
    expect(price('sort')).toEqual({ step_type: 'sort', per: 'run', credits: 500 });
    expect(price('http_request')).toEqual({ step_type: 'http_request', per: 'record', credits: 0.1 });
    expect((await api('GET', '/workflow-step-infos/ai_prompt')).json().cost).toMatchObject({ per: 'record', credits: 2.5 });
  });

  it('estimates a run and refuses to start one the balance does not cover, with the insufficient-credits modal', async () => {
    const owner = await signedInUser(t.app);
    const api = as(owner);
    const wf = workflowClient(t.app, owner.auth);
    const workflowId = (await wf.createWorkflow('Sorted')).id as string;
    const table = await wf.addStep(workflowId, 'table_input', { param_inputs: { columns: [{ name: 'n', type: 'integer' }], rows: [[2], [1]] } });
    const sort = await wf.addStep(workflowId, 'sort', { inputs: [table.id], param_inputs: { columns: ['n'], direction: 'ascending' } });

    const estimate = (await api('GET', `/workflows/${workflowId}/cost-estimate?step_id=${sort.id}&mode=all`)).json();
    expect(estimate).toEqual({
      credits: 500,
      unknown: false,
      balance: 100,
      enough: false,
      billing_enabled: true,
      lines: [
        { step_id: table.id, step_name: expect.any(String), step_type: 'table_input', per: 'run', records: null, credits: 0, unknown: false },
        { step_id: sort.id, step_name: expect.any(String), step_type: 'sort', per: 'run', records: null, credits: 500, unknown: false },
      ],
    });
    // A per-record step counts the records it will read: the typed-in table's two rows × 2.5.
    const prompt = await wf.addStep(workflowId, 'ai_prompt', { inputs: [table.id], param_inputs: { prompt: 'Say {{field.n}}' } });
    expect((await api('GET', `/workflows/${workflowId}/cost-estimate?step_id=${prompt.id}&mode=up_to`)).json()).toMatchObject({
      credits: 5,
      enough: true,
      lines: [
        { step_type: 'table_input', credits: 0 },
        { step_id: prompt.id, step_type: 'ai_prompt', per: 'record', records: 2, credits: 5 },
      ],
    });
    // Only the table: free.
    expect((await api('GET', `/workflows/${workflowId}/cost-estimate?step_id=${table.id}&mode=only`)).json()).toMatchObject({ credits: 0, enough: true });

    const refused = await api('POST', `/workflow-execution/${workflowId}/steps/${sort.id}/execute?mode=up_to`, {});
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({
      detail: 'Not enough credits: this run needs about 500 credits and your balance is 100.',
      modal: { modal_id: 'insufficient-credits', level: 'warning', content: expect.stringContaining('500'), buttons: ['Top up', 'Cancel'] },
    });
    expect(await t.app.db.selectFrom('workflow_runs').select('id').where('workflow_id', '=', workflowId).execute()).toEqual([]);
    // In Chinese too.
    const zh = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workflow-execution/${workflowId}/steps/${sort.id}/execute`,
      headers: { ...owner.auth, 'accept-language': 'zh-CN' },
      payload: {},
    });
    expect(zh.json().detail).toContain('额度不足');

    // Another user's workflow, or garbage: 404 and 422 as everywhere.
    expect((await as(await signedInUser(t.app))('GET', `/workflows/${workflowId}/cost-estimate`)).statusCode).toBe(404);
    expect((await api('GET', `/workflows/${workflowId}/cost-estimate?mode=sideways`)).statusCode).toBe(422);
    expect((await api('GET', `/workflows/${workflowId}/cost-estimate?sample_size=0`)).statusCode).toBe(422);
  });

  it('rounds credits in its messages as the app shows them: two decimals, and a small amount never reads as 0', async () => {
    const owner = await signedInUser(t.app);
    const wf = workflowClient(t.app, owner.auth);
    const workflowId = (await wf.createWorkflow('Rounded')).id as string;
    const table = await wf.addStep(workflowId, 'table_input', { param_inputs: { columns: [{ name: 'n', type: 'integer' }], rows: [[1]] } });
    const sort = await wf.addStep(workflowId, 'sort', { inputs: [table.id], param_inputs: { columns: ['n'], direction: 'ascending' } });
    await t.app.credits.append([
      { userId: owner.user.id, kind: 'adjustment', creditsMicro: -toMicro(87.654321), idempotencyKey: `test:spend:${owner.user.id}` },
    ]);
    const refused = await as(owner)('POST', `/workflow-execution/${workflowId}/steps/${sort.id}/execute?mode=up_to`, {});
    expect(refused.json().detail).toBe('Not enough credits: this run needs about 500 credits and your balance is 12.35.');
    await t.app.credits.append([{ userId: owner.user.id, kind: 'adjustment', creditsMicro: -toMicro(12.343), idempotencyKey: `test:spend2:${owner.user.id}` }]);
    const almostNothing = await as(owner)('POST', `/workflow-execution/${workflowId}/steps/${sort.id}/execute?mode=up_to`, {});
    expect(almostNothing.json().detail).toBe('Not enough credits: this run needs about 500 credits and your balance is 0.0027.');
  });

  it('lets only admins adjust credits (401, 403, 200), with bounded input', async () => {
    const user = await signedInUser(t.app);
    const admin = await signedInUser(t.app, { email: ADMIN });
    const body = { email: user.account.email.toUpperCase(), credits: 12.5, note: 'Goodwill after an outage' };
    expect((await as(null)('POST', '/balance/admin/adjustments', body)).statusCode).toBe(401);
    expect((await as(user)('POST', '/balance/admin/adjustments', body)).statusCode).toBe(403);
    const done = await as(admin)('POST', '/balance/admin/adjustments', body);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ balance: 112.5, message: expect.stringContaining('112.5') });
    const entries = (await as(user)('GET', '/balance/entries?kind=adjustment')).json();
    expect(entries.items).toEqual([expect.objectContaining({ kind: 'adjustment', credits: 12.5, description: 'Goodwill after an outage' })]);
    expect((await as(admin)('POST', '/balance/admin/adjustments', { ...body, credits: -2.5 })).json().balance).toBe(110);

    for (const bad of [
      { ...body, credits: 0 },
      { ...body, credits: 1e7 },
      { ...body, credits: 'lots' },
      { ...body, note: '' },
      { ...body, note: 'x'.repeat(501) },
      { ...body, email: 'x'.repeat(400) },
      { ...body, extra: true },
      { email: body.email, credits: 1 },
    ]) {
      expect([bad, (await as(admin)('POST', '/balance/admin/adjustments', bad)).statusCode]).toEqual([bad, 422]);
    }
    expect((await as(admin)('POST', '/balance/admin/adjustments', { ...body, email: 'nobody@example.com' })).statusCode).toBe(404);
  });
});

describe('usage with billing off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BILLING_ENABLED: 'false', STEP_PRICES: '{"sort": 500}' });
  });
  afterAll(async () => t?.close());

  it('grants nothing, checks nothing and charges nothing', async () => {
    const owner = await signedInUser(t.app);
    const api = (method: string, url: string) =>
      t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: owner.auth, payload: method === 'POST' ? {} : undefined });
    expect((await api('GET', '/balance/')).json()).toEqual({ balance: 0, billing_enabled: false, paused_runs: 0 });
    expect((await api('GET', '/balance/entries')).json().total).toBe(0);
    const wf = workflowClient(t.app, owner.auth);
    const workflowId = (await wf.createWorkflow('Free')).id as string;
    const table = await wf.addStep(workflowId, 'table_input', { param_inputs: { columns: [{ name: 'n', type: 'integer' }], rows: [[1]] } });
    const sort = await wf.addStep(workflowId, 'sort', { inputs: [table.id], param_inputs: { columns: ['n'], direction: 'ascending' } });
    expect((await api('GET', `/workflows/${workflowId}/cost-estimate?step_id=${sort.id}`)).json()).toMatchObject({ billing_enabled: false, enough: true });
    expect((await api('POST', `/workflow-execution/${workflowId}/steps/${sort.id}/execute`)).statusCode).toBe(202);
    expect((await api('GET', '/balance/prices')).json().billing_enabled).toBe(false);
  });
});
