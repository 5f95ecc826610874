import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';
import { DatasetsService } from './datasets.service';

/* GET /datasets/: the caller's own datasets, on real snapshots registered as the run engine does. */
describe('the list of datasets', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let stranger: Awaited<ReturnType<typeof signedInUser>>;

  const list = async (who: { auth: Record<string, string> }, query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/datasets/${query ? `?${query}` : ''}`, headers: who.auth });
    expect(res.statusCode).toBe(200);
    return res.json() as { items: Record<string, unknown>[]; total: number; page: number; page_size: number };
  };
  const names = (body: { items: Record<string, unknown>[] }) => body.items.map((d) => d.name);

  beforeAll(async () => {
    t = await createTestApp();
    const service = new DatasetsService(t.app.db, t.app.datasets);
    owner = await signedInUser(t.app);
    stranger = await signedInUser(t.app);
    const ownerId = owner.user.id as string;
    const now = new Date().toISOString();
    const runId = randomUUID();
    const stepRunId = randomUUID();
    const workflowId = (await workflowClient(t.app, owner.auth).createWorkflow('Monthly sales')).id as string;
    await t.app.db
      .insertInto('workflow_runs')
      .values({
        id: runId,
        workflow_id: workflowId,
        user_id: ownerId,
        workflow_version: 1,
        snapshot: '{}',
        mode: 'all',
        target_step_id: null,
        sample_size: null,
        state: 'running',
        started_by: 'user',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await (t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>)
      .insertInto('step_runs')
      .values({
        id: stepRunId,
        run_id: runId,
        step_id: 'clean',
        step_type: 'filter',
        params_hash: 'p',
        cache_key: 'k',
        input_dataset_ids: '[]',
        created_at: now,
        updated_at: now,
      })
      .execute();

    const register = async (ownerOf: string, name: string, createdAt: string, extra: { stepRunId?: string; expiresAt?: string } = {}) => {
      const meta = await t.app.datasets.write({
        ownerId: ownerOf,
        name,
        stepRunId: extra.stepRunId,
        source: { columns: [{ name: 'n', type: 'BIGINT' }], batches: [[{ n: 1 }, { n: 2 }]] },
      });
      await service.registerDataset({ ...meta, createdAt }, { expiresAt: extra.expiresAt ?? null });
    };
    await register(ownerId, 'Customers 2023', '2024-01-01T00:00:00.000Z');
    await register(ownerId, 'Cleaned sales', '2024-01-02T00:00:00.000Z', { stepRunId });
    await register(ownerId, 'Sales_100%', '2024-01-03T00:00:00.000Z');
    await register(ownerId, 'Sales old', '2024-01-04T00:00:00.000Z', { expiresAt: '2024-02-01T00:00:00.000Z' });
    await register(ownerId, 'Sales later', '2024-01-05T00:00:00.000Z', { expiresAt: '2999-01-01T00:00:00.000Z' });
    await register(stranger.user.id as string, 'Stranger sales', '2024-01-06T00:00:00.000Z');
  });
  afterAll(() => t.close());

  it('lists only the caller’s unexpired datasets, newest first, with where each came from', async () => {
    const body = await list(owner);
    expect(names(body)).toEqual(['Sales later', 'Sales_100%', 'Cleaned sales', 'Customers 2023']);
    expect(body).toMatchObject({ total: 4, page: 1, page_size: 20 });
    expect(body.items[2]).toMatchObject({
      row_count: 2,
      created_at: '2024-01-02T00:00:00.000Z',
      expires_at: null,
      workflow_name: 'Monthly sales',
      step_id: 'clean',
    });
    expect(body.items[2].bytes).toBeGreaterThan(0);
    expect(body.items[3]).toMatchObject({ workflow_id: null, workflow_name: null, step_id: null });
    expect(names(await list(stranger))).toEqual(['Stranger sales']);
  });

  it('pages', async () => {
    const second = await list(owner, 'page=2&page_size=3');
    expect(names(second)).toEqual(['Customers 2023']);
    expect(second).toMatchObject({ total: 4, page: 2, page_size: 3 });
  });

  it('filters by a case-insensitive part of the name, wildcards taken literally', async () => {
    expect(names(await list(owner, 'q=SALES'))).toEqual(['Sales later', 'Sales_100%', 'Cleaned sales']);
    expect(names(await list(owner, `q=${encodeURIComponent('s_1')}`))).toEqual(['Sales_100%']);
    expect(names(await list(owner, `q=${encodeURIComponent('%')}`))).toEqual(['Sales_100%']);
    expect(names(await list(stranger, 'q=customers'))).toEqual([]);
  });

  it('refuses an over-long filter or page size with 422', async () => {
    for (const query of [`q=${'a'.repeat(201)}`, 'page_size=101']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/datasets/?${query}`, headers: owner.auth });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[0].loc[0]).toBe('query');
    }
  });
});
