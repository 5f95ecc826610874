import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatasetMetadata } from '../../engine/datasets';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';
import { DatasetsService } from './datasets.service';

/*
 * Comparing two outputs of a step on real snapshots (DuckDB over the Parquet files in the test's
 * storage), and the list of a step's other outputs to compare with.
 */
describe('dataset comparison', () => {
  let t: TestApp;
  let service: DatasetsService;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let stranger: Awaited<ReturnType<typeof signedInUser>>;
  let before: DatasetMetadata;
  let after: DatasetMetadata;
  let workflowId: string;

  const get = (who: { auth: Record<string, string> }, url: string, lang = 'en') =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { ...who.auth, 'accept-language': lang } });
  const compare = async (query: Record<string, string | number>, who = owner) => {
    const res = await get(
      who,
      `/datasets/${after.id}/compare?${new URLSearchParams({ with: before.id, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) }).toString()}`,
    );
    return res;
  };

  /** A step run of step `stepId` in a new run of the workflow, for datasets to name as their maker. */
  async function stepRun(stepId: string, createdAt: string): Promise<string> {
    const ownerId = owner.user.id as string;
    const runId = randomUUID();
    const id = randomUUID();
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
        state: 'succeeded',
        started_by: 'user',
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
    await (t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>)
      .insertInto('step_runs')
      .values({
        id,
        run_id: runId,
        step_id: stepId,
        step_type: 'filter',
        params_hash: 'p',
        cache_key: randomUUID(),
        input_dataset_ids: '[]',
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    service = new DatasetsService(t.app.db, t.app.datasets);
    owner = await signedInUser(t.app);
    stranger = await signedInUser(t.app);
    workflowId = (await workflowClient(t.app, owner.auth).createWorkflow()).id as string;
    const ownerId = owner.user.id as string;
    // Before: sku, name, price (DOUBLE), qty (BIGINT), note. After: qty became VARCHAR, note is
    // gone, colour is new; 北京-1 changed its price, B-2 is unchanged (null note vs null colour
    // aside, its compared values are equal, and its null price stays null), C-3 removed, Ünïcode-4 added.
    before = await t.app.datasets.write({
      ownerId,
      name: 'Orders',
      stepRunId: await stepRun('s1', '2026-01-01T00:00:00.000Z'),
      source: {
        columns: [
          { name: 'sku', type: 'VARCHAR' },
          { name: 'name', type: 'VARCHAR' },
          { name: 'price', type: 'DOUBLE' },
          { name: 'qty', type: 'BIGINT' },
          { name: 'note', type: 'VARCHAR' },
        ],
        batches: [
          [
            { sku: '北京-1', name: 'Tea', price: 2.5, qty: 1, note: 'x' },
            { sku: 'B-2', name: null, price: null, qty: 2, note: null },
            { sku: 'C-3', name: 'Gone', price: 1, qty: 3, note: 'y' },
          ],
        ],
      },
    });
    await service.registerDataset(before, { expiresAt: '2099-01-02T00:00:00.000Z' });
    after = await t.app.datasets.write({
      ownerId,
      name: 'Orders',
      stepRunId: await stepRun('s1', '2026-01-05T00:00:00.000Z'),
      source: {
        columns: [
          { name: 'sku', type: 'VARCHAR' },
          { name: 'name', type: 'VARCHAR' },
          { name: 'price', type: 'DOUBLE' },
          { name: 'qty', type: 'VARCHAR' },
          { name: 'colour', type: 'VARCHAR' },
        ],
        batches: [
          [
            { sku: 'B-2', name: null, price: null, qty: '2', colour: null },
            { sku: '北京-1', name: 'Tea', price: 3, qty: '1', colour: 'green' },
            { sku: 'Ünïcode-4', name: 'New', price: 9, qty: '4', colour: 'red' },
          ],
        ],
      },
    });
    await service.registerDataset(after);
  });
  afterAll(() => t.close());

  it('answers the schema changes and the counts by key', async () => {
    const res = await compare({ key: 'sku' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.schema).toEqual({
      added: [{ name: 'colour', type: 'VARCHAR' }],
      removed: [{ name: 'note', type: 'VARCHAR' }],
      type_changed: [{ name: 'qty', before: 'BIGINT', after: 'VARCHAR' }],
    });
    // NULL against NULL (B-2's name and price) is no change; qty 2 → '2' reads the same.
    expect(body.counts).toEqual({ added: 1, removed: 1, changed: 1, unchanged: 1 });
    expect(body).toMatchObject({ total: 3, page: 1, page_size: 50 });
  });

  it('lists the differences by key: changed cells before → after, added and removed records whole', async () => {
    const body = (await compare({ key: 'sku' })).json();
    // Ordered by key (byte order: ASCII before the accented and Chinese keys).
    expect(body.items).toEqual([
      { status: 'removed', key: 'C-3', changes: [], record: { _id: expect.any(String), sku: 'C-3', name: 'Gone', price: 1, qty: 3, note: 'y' } },
      { status: 'added', key: 'Ünïcode-4', changes: [], record: { _id: expect.any(String), sku: 'Ünïcode-4', name: 'New', price: 9, qty: '4', colour: 'red' } },
      { status: 'changed', key: '北京-1', changes: [{ column: 'price', before: 2.5, after: 3 }] },
    ]);
    expect((await compare({ key: 'sku', show: 'changed' })).json()).toMatchObject({ total: 1, items: [{ key: '北京-1' }] });
    expect((await compare({ key: 'sku', show: 'added' })).json().items.map((i: { key: string }) => i.key)).toEqual(['Ünïcode-4']);
    const second = (await compare({ key: 'sku', page: 2, page_size: 2 })).json();
    expect(second).toMatchObject({ total: 3, page: 2, page_size: 2, items: [{ status: 'changed', key: '北京-1' }] });
  });

  it('answers 422 at the key for a column missing on one side, or one that does not identify records', async () => {
    const missing = await compare({ key: 'note' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual([{ msg: 'Both datasets need a column “note” to match their records by.', loc: ['query', 'key'] }]);
    // qty is 1, 2, 3 before but texts after: still a usable key (compared as text).
    expect((await compare({ key: 'qty' })).statusCode).toBe(200);
    // name is null for B-2 on both sides: not a key.
    const notUnique = await get(owner, `/datasets/${after.id}/compare?with=${before.id}&key=name`, 'zh-CN');
    expect(notUnique.statusCode).toBe(422);
    expect(notUnique.json().errors).toEqual([{ msg: expect.stringContaining('列“name”不能唯一标识每条记录'), loc: ['query', 'key'] }]);
    expect((await compare({ key: 'sku', page_size: 201 })).statusCode).toBe(422);
  });

  it("is not found for another user's dataset on either side", async () => {
    const theirs = await compare({ key: 'sku' }, stranger);
    expect(theirs.statusCode).toBe(404);
    const other = await t.app.datasets.write({
      ownerId: stranger.user.id as string,
      name: 'Theirs',
      source: { columns: [{ name: 'sku', type: 'VARCHAR' }], batches: [[{ sku: 'a' }]] },
    });
    await service.registerDataset(other);
    const mixed = await get(owner, `/datasets/${after.id}/compare?with=${other.id}&key=sku`);
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json().detail).toBe('Dataset not found.');
  });

  it("lists the step's other outputs, newest first, for the owner only", async () => {
    const res = await get(owner, `/datasets/${after.id}/siblings`);
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([
      { id: before.id, name: 'Orders', run_id: expect.any(String), row_count: 3, created_at: before.createdAt, expires_at: '2099-01-02T00:00:00.000Z' },
    ]);
    expect((await get(owner, `/datasets/${before.id}/siblings`)).json().items.map((d: { id: string }) => d.id)).toEqual([after.id]);
    expect((await get(stranger, `/datasets/${after.id}/siblings`)).statusCode).toBe(404);
  });

  it('documents both calls in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const params = doc.paths['/api/v1/datasets/{datasetId}/compare'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['datasetId', 'with', 'key', 'page', 'page_size', 'show']));
    expect(doc.paths['/api/v1/datasets/{datasetId}/siblings'].get).toBeDefined();
  });
});
