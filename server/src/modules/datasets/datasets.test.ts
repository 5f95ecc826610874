import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatasetMetadata } from '../../engine/datasets';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';
import { DatasetsService } from './datasets.service';

/*
 * The Datasets calls on real snapshots: fixtures are written by the engine's dataset layer (real
 * Parquet files in the test's storage) and registered as the run engine will register them.
 */
describe('datasets', () => {
  let t: TestApp;
  let service: DatasetsService;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let stranger: Awaited<ReturnType<typeof signedInUser>>;
  let products: DatasetMetadata;
  let cheap: DatasetMetadata;
  let stepRunId: string;
  let runId: string;
  let workflowId: string;

  const rows = [
    { name: 'Apple', price: 1.5, qty: 10, active: true, day: '2024-01-01', note: 'red fruit' },
    { name: 'Banana', price: 0.25, qty: 100, active: true, day: '2024-01-02', note: null },
    { name: 'Cherry', price: 7, qty: 3, active: false, day: '2024-01-03', note: 'Small' },
    { name: 'Date', price: 3.2, qty: 0, active: true, day: '2024-02-01', note: 'sweet' },
    { name: 'Elderberry', price: 12, qty: 7, active: false, day: '2024-02-02', note: null },
    { name: 'Fig', price: 2, qty: 42, active: true, day: '2024-03-01', note: 'Figure it out' },
  ];

  const get = (who: { auth: Record<string, string> }, url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: who.auth });
  const records = async (query: Record<string, string | number>) => {
    const res = await get(owner, `/datasets/${products.id}/records?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const names = (body: { items: { name: string }[] }) => body.items.map((r) => r.name);
  const filtered = async (...filters: object[]) => names(await records({ filters: JSON.stringify(filters) }));
  const problems = async (query: string) => {
    const res = await get(owner, `/datasets/${products.id}/records?${query}`);
    expect(res.statusCode).toBe(422);
    return res.json().errors as { msg: string; loc: (string | number)[] }[];
  };

  beforeAll(async () => {
    t = await createTestApp();
    service = new DatasetsService(t.app.db, t.app.datasets);
    owner = await signedInUser(t.app);
    stranger = await signedInUser(t.app);
    const ownerId = owner.user.id as string;
    const now = new Date().toISOString();
    runId = randomUUID();
    stepRunId = randomUUID();
    workflowId = (await workflowClient(t.app, owner.auth).createWorkflow()).id as string;
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
    // Only the columns without a default, through an untyped view (as db/migrations/007_runs.test.ts does).
    await (t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>)
      .insertInto('step_runs')
      .values({
        id: stepRunId,
        run_id: runId,
        step_id: 's1',
        step_type: 'filter',
        params_hash: 'p',
        cache_key: 'k',
        input_dataset_ids: '[]',
        created_at: now,
        updated_at: now,
      })
      .execute();

    products = await t.app.datasets.write({
      ownerId,
      name: 'Products',
      source: {
        columns: [
          { name: 'name', type: 'VARCHAR' },
          { name: 'price', type: 'DOUBLE' },
          { name: 'qty', type: 'BIGINT' },
          { name: 'active', type: 'BOOLEAN' },
          { name: 'day', type: 'DATE' },
          { name: 'note', type: 'VARCHAR' },
        ],
        batches: [rows],
      },
    });
    await service.registerDataset(products);
    cheap = await t.app.datasets.write({
      ownerId,
      name: 'Cheap',
      stepRunId,
      inputs: [products],
      source: { sql: ([p]) => `SELECT _id, name, price FROM ${p} WHERE price < $1`, params: [3] },
    });
    await service.registerDataset(cheap);
  });
  afterAll(() => t.close());

  it('describes a dataset: columns and types, rows, bytes, the run that made it and its parents', async () => {
    const res = await get(owner, `/datasets/${cheap.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: cheap.id,
      name: 'Cheap',
      columns: [
        { name: '_id', type: 'VARCHAR' },
        { name: 'name', type: 'VARCHAR' },
        { name: 'price', type: 'DOUBLE' },
      ],
      row_count: 3,
      bytes: cheap.bytes,
      step_run_id: stepRunId,
      run_id: runId,
      workflow_id: workflowId,
      step_id: 's1',
      parents: [{ id: products.id, name: 'Products' }],
      created_at: cheap.createdAt,
      expires_at: null,
    });
    expect(cheap.bytes).toBeGreaterThan(0);
    const root = (await get(owner, `/datasets/${products.id}?include_lineage=false`)).json();
    expect(root).toMatchObject({ row_count: 6, step_run_id: null, run_id: null, workflow_id: null });
    expect(root).not.toHaveProperty('parents');
    expect((await get(owner, `/datasets/${products.id}/`)).json().parents).toEqual([]);
  });

  it("keeps lineage in the order of the step's inputs", async () => {
    const ownerId = owner.user.id as string;
    const now = new Date().toISOString();
    const joinRun = randomUUID();
    const second = await t.app.datasets.write({ ownerId, name: 'Second', source: { columns: [{ name: 'x', type: 'BIGINT' }], batches: [[{ x: 1 }]] } });
    await service.registerDataset(second);
    // The younger parent is the step's first input.
    await (t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>)
      .insertInto('step_runs')
      .values({
        id: joinRun,
        run_id: runId,
        step_id: 's2',
        step_type: 'join',
        params_hash: 'p',
        cache_key: 'k2',
        input_dataset_ids: JSON.stringify([second.id, products.id]),
        created_at: now,
        updated_at: now,
      })
      .execute();
    const joined = await t.app.datasets.write({
      ownerId,
      name: 'Joined',
      stepRunId: joinRun,
      inputs: [second, products],
      source: { sql: ([a]) => `SELECT x FROM ${a}` },
    });
    await service.registerDataset(joined);
    expect((await get(owner, `/datasets/${joined.id}`)).json()).toMatchObject({
      step_id: 's2',
      parents: [
        { id: second.id, name: 'Second' },
        { id: products.id, name: 'Products' },
      ],
    });
  });

  it('pages and sorts records, with the total and the answered columns', async () => {
    const first = await records({ page_size: 4 });
    expect(first).toMatchObject({ total: 6, page: 1, page_size: 4 });
    expect(names(first)).toEqual(['Apple', 'Banana', 'Cherry', 'Date']);
    expect(first.columns.map((c: { name: string }) => c.name)).toEqual(['_id', 'name', 'price', 'qty', 'active', 'day', 'note']);
    expect(first.items[0]).toEqual({ _id: expect.any(String), name: 'Apple', price: 1.5, qty: 10, active: true, day: '2024-01-01', note: 'red fruit' });
    expect(names(await records({ page: 2, page_size: 4 }))).toEqual(['Elderberry', 'Fig']);
    expect(names(await records({ sort: 'price:desc' }))).toEqual(['Elderberry', 'Cherry', 'Date', 'Fig', 'Apple', 'Banana']);
    expect(names(await records({ sort: 'active:asc,qty:DESC', page_size: 3 }))).toEqual(['Elderberry', 'Cherry', 'Banana']);
    expect(names(await records({ sort: 'note,name:desc' }))).toEqual(['Fig', 'Cherry', 'Apple', 'Date', 'Elderberry', 'Banana']);
  });

  it('narrows to the asked columns, _id first', async () => {
    const body = await records({ columns: 'price,name,price', page_size: 1 });
    expect(body.items).toEqual([{ _id: expect.any(String), price: 1.5, name: 'Apple' }]);
    expect(body.columns).toEqual([
      { name: '_id', type: 'VARCHAR' },
      { name: 'price', type: 'DOUBLE' },
      { name: 'name', type: 'VARCHAR' },
    ]);
  });

  it('filters with every operator, in the column type', async () => {
    expect(await filtered({ column: 'qty', op: '=', value: 42 })).toEqual(['Fig']);
    expect(await filtered({ column: 'name', op: '!=', value: 'Apple' })).toEqual(['Banana', 'Cherry', 'Date', 'Elderberry', 'Fig']);
    expect(await filtered({ column: 'note', op: '!=', value: 'sweet' })).toEqual(['Apple', 'Banana', 'Cherry', 'Elderberry', 'Fig']);
    expect(await filtered({ column: 'price', op: '<', value: 2 })).toEqual(['Apple', 'Banana']);
    expect(await filtered({ column: 'price', op: '<=', value: '2' })).toEqual(['Apple', 'Banana', 'Fig']);
    expect(await filtered({ column: 'qty', op: '>', value: 10 })).toEqual(['Banana', 'Fig']);
    expect(await filtered({ column: 'day', op: '>=', value: '2024-02-01' })).toEqual(['Date', 'Elderberry', 'Fig']);
    expect(await filtered({ column: 'note', op: 'contains', value: 'FIG' })).toEqual(['Fig']);
    expect(await filtered({ column: 'name', op: 'starts_with', value: 'e' })).toEqual(['Elderberry']);
    expect(await filtered({ column: 'note', op: 'is_null' })).toEqual(['Banana', 'Elderberry']);
    expect(await filtered({ column: 'note', op: 'is_not_null' }, { column: 'active', op: '=', value: false })).toEqual(['Cherry']);
    expect(await filtered({ column: 'name', op: 'in', value: ['Fig', 'Date', 'Kiwi'] })).toEqual(['Date', 'Fig']);
    const page = await records({ filters: JSON.stringify([{ column: 'active', op: '=', value: true }]), sort: 'qty:asc', page_size: 2 });
    expect(page).toMatchObject({ total: 4 });
    expect(names(page)).toEqual(['Date', 'Apple']);
  });

  it("counts a column's values, the most frequent first and empty last, with how many there are", async () => {
    const res = await get(owner, `/datasets/${products.id}/values?column=active`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      column: 'active',
      values: [
        { value: true, count: 4 },
        { value: false, count: 2 },
      ],
      distinct: 2,
    });
    const notes = (await get(owner, `/datasets/${products.id}/values?column=note&limit=2`)).json();
    expect(notes).toEqual({
      column: 'note',
      values: [
        { value: null, count: 2 },
        { value: 'Figure it out', count: 1 },
      ],
      distinct: 5,
    });
    const unknown = await get(owner, `/datasets/${products.id}/values?column=nope`);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual([{ msg: 'The dataset has no column "nope".', loc: ['query', 'column'] }]);
    expect((await get(owner, `/datasets/${products.id}/values?column=name&limit=201`)).statusCode).toBe(422);
    expect((await get(stranger, `/datasets/${products.id}/values?column=name`)).statusCode).toBe(404);
  });

  it('answers one record by its id, and 404 for a missing one', async () => {
    const [apple] = (await records({ page_size: 1 })).items;
    const res = await get(owner, `/datasets/${products.id}/record/${apple._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(apple);
    const missing = await get(owner, `/datasets/${products.id}/record/nope`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Record not found.' });
  });

  it("answers another user's dataset exactly like a missing one", async () => {
    const [apple] = (await records({ page_size: 1 })).items;
    const missingId = randomUUID();
    for (const url of [`/datasets/${products.id}`, `/datasets/${products.id}/records`, `/datasets/${products.id}/record/${apple._id}`]) {
      const theirs = await get(stranger, url);
      const missing = await get(owner, url.replace(products.id, missingId));
      expect([theirs.statusCode, theirs.json()]).toEqual([404, { detail: 'Dataset not found.' }]);
      expect([missing.statusCode, missing.json()]).toEqual([404, { detail: 'Dataset not found.' }]);
    }
  });

  it('answers 401 without a token', async () => {
    for (const url of [`/datasets/${products.id}`, `/datasets/${products.id}/records`, `/datasets/${products.id}/record/x`]) {
      expect((await t.app.inject({ method: 'GET', url: `/api/v1${url}` })).statusCode).toBe(401);
    }
  });

  it('refuses bad queries with 422 at the query field', async () => {
    const f = (...filters: object[]) => `filters=${encodeURIComponent(JSON.stringify(filters))}`;
    expect(await problems(f({ column: 'colour', op: '=', value: 'red' }))).toEqual([
      { msg: 'The dataset has no column "colour".', loc: ['query', 'filters', 0, 'column'] },
    ]);
    expect(await problems(f({ column: 'qty', op: 'like', value: 1 }))).toEqual([
      { msg: '"like" is not a filter operator.', loc: ['query', 'filters', 0, 'op'] },
    ]);
    expect(await problems(f({ column: 'qty', op: 'contains', value: '1' }))).toEqual([
      { msg: expect.stringContaining('cannot be filtered with "contains"'), loc: ['query', 'filters', 0, 'op'] },
    ]);
    expect(await problems(f({ column: 'price', op: '>', value: 'ten' }))).toEqual([
      { msg: '"ten" is not a DOUBLE value, which column "price" holds.', loc: ['query', 'filters', 0, 'value'] },
    ]);
    expect(await problems(f({ column: 'name', op: 'in', value: [] }))).toEqual([
      { msg: 'Give a list of 1 to 100 values.', loc: ['query', 'filters', 0, 'value'] },
    ]);
    const many = Array.from({ length: 21 }, () => ({ column: 'qty', op: 'is_null' }));
    expect(await problems(f(...many))).toEqual([{ msg: 'At most 20 are allowed here.', loc: ['query', 'filters'] }]);
    expect((await problems('page_size=100000'))[0].loc).toEqual(['query', 'page_size']);
    expect(await problems('sort=colour:asc,name:up')).toEqual([
      { msg: 'The dataset has no column "colour".', loc: ['query', 'sort', 0, 'column'] },
      { msg: '"up" is not a sort direction: use asc or desc.', loc: ['query', 'sort', 1, 'direction'] },
    ]);
    expect(await problems('sort=a,b,c,d,e,f')).toEqual([{ msg: 'At most 5 are allowed here.', loc: ['query', 'sort'] }]);
    expect(await problems('columns=name,colour')).toEqual([{ msg: 'The dataset has no column "colour".', loc: ['query', 'columns', 1] }]);
    expect((await problems('filters=not-json'))[0].loc).toEqual(['query', 'filters']);
    expect((await problems(`filters=${encodeURIComponent('{"column":"qty"}')}`))[0].loc).toEqual(['query', 'filters']);
    expect((await problems(`filters=${encodeURIComponent('[1]')}`))[0].loc).toEqual(['query', 'filters', 0]);
    expect((await problems(`filters=${'x'.repeat(20_001)}`))[0].loc).toEqual(['query', 'filters']);
    expect((await problems('colour=red'))[0].loc).toEqual(['query', 'colour']);
    const describe = await get(owner, `/datasets/${products.id}?include_lineage=maybe`);
    expect([describe.statusCode, describe.json().errors[0].loc]).toEqual([422, ['query', 'include_lineage']]);
  });

  it("registers a dataset with its lineage only when every parent is the same owner's", async () => {
    const theirs = await t.app.datasets.write({
      ownerId: stranger.user.id as string,
      name: 'Theirs',
      source: { columns: [{ name: 'x', type: 'BIGINT' }], batches: [[{ x: 1 }]] },
    });
    await service.registerDataset(theirs);
    const mixed: DatasetMetadata = { ...cheap, id: randomUUID(), parentIds: [products.id, theirs.id] };
    await expect(service.registerDataset(mixed)).rejects.toThrow(/parents not owned/);
    expect(await t.app.db.selectFrom('datasets').select('id').where('id', '=', mixed.id).execute()).toEqual([]);
    // A repeated parent is one lineage row; a row whose snapshot is gone answers 404.
    const twice: DatasetMetadata = {
      ...cheap,
      id: randomUUID(),
      storageKey: `datasets/${owner.user.id as string}/gone.parquet`,
      stepRunId: null,
      parentIds: [products.id, products.id],
    };
    await service.registerDataset(twice);
    expect(await t.app.db.selectFrom('dataset_parents').select('parent_id').where('dataset_id', '=', twice.id).execute()).toEqual([{ parent_id: products.id }]);
    const gone = await get(owner, `/datasets/${twice.id}`);
    expect([gone.statusCode, gone.json()]).toEqual([404, { detail: 'Dataset not found.' }]);
  });

  it('documents the records query in OpenAPI with its bounds', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const params = doc.paths['/api/v1/datasets/{datasetId}/records'].get.parameters as {
      name: string;
      in: string;
      schema: { maximum?: number; maxLength?: number };
      description?: string;
    }[];
    const byName = Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(['columns', 'filters', 'page', 'page_size', 'sort']);
    expect(byName.page_size.schema.maximum).toBe(1000);
    expect(byName.filters.schema.maxLength).toBe(20_000);
    expect(byName.filters.description ?? JSON.stringify(byName.filters.schema)).toContain('starts_with');
    expect(doc.paths['/api/v1/datasets/{datasetId}'].get.parameters.map((p: { name: string }) => p.name)).toContain('include_lineage');
    expect(doc.paths['/api/v1/datasets/{datasetId}/record/{recordId}'].get).toBeDefined();
  });

  it('downloads the whole dataset as CSV under its name, and leaves no temporary file', async () => {
    const res = await get(owner, `/datasets/${products.id}/download?format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Products.csv"; filename*=UTF-8''Products.csv`);
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('_id,name,price,qty,active,day,note');
    expect(lines.slice(1).map((line) => line.split(',').slice(1).join(','))).toEqual([
      'Apple,1.5,10,true,2024-01-01,red fruit',
      'Banana,0.25,100,true,2024-01-02,',
      'Cherry,7.0,3,false,2024-01-03,Small',
      'Date,3.2,0,true,2024-02-01,sweet',
      'Elderberry,12.0,7,false,2024-02-02,',
      'Fig,2.0,42,true,2024-03-01,Figure it out',
    ]);
    const exportsDir = path.join(t.config.datasets.tempDir, 'datasets');
    const leftOver = () => fs.promises.readdir(exportsDir).then((names) => names.filter((name) => name.startsWith('export-')));
    // The file is removed when the stream closes, just after the response has been handed over.
    for (let tries = 0; tries < 50 && (await leftOver()).length; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await leftOver()).toEqual([]);
  });

  it('downloads the records as a grid shows them: filtered, sorted (ties in file order), without `_id` unless asked', async () => {
    const view = `sort=active:desc,price:asc&filters=${encodeURIComponent(JSON.stringify([{ column: 'qty', op: '>', value: 5 }]))}`;
    const csv = await get(owner, `/datasets/${products.id}/download?format=csv&${view}&include_id=false`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n')).toEqual([
      'name,price,qty,active,day,note',
      'Banana,0.25,100,true,2024-01-02,',
      'Apple,1.5,10,true,2024-01-01,red fruit',
      'Fig,2.0,42,true,2024-03-01,Figure it out',
      'Elderberry,12.0,7,false,2024-02-02,',
    ]);
    // Some columns, in the order asked, and the ids when asked for.
    const narrow = await get(owner, `/datasets/${products.id}/download?format=csv&columns=qty,name&sort=qty:desc&include_id=true`);
    const lines = narrow.body.trim().split('\n');
    expect(lines[0]).toBe('_id,qty,name');
    expect(lines.slice(1).map((line) => line.split(',').slice(1).join(','))).toEqual([
      '100,Banana',
      '42,Fig',
      '10,Apple',
      '7,Elderberry',
      '3,Cherry',
      '0,Date',
    ]);
    // Parquet too: a new file with just those records and columns.
    const parquet = await get(owner, `/datasets/${products.id}/download?format=parquet&${view}&columns=name&include_id=false`);
    expect(parquet.statusCode).toBe(200);
    const written = path.join(t.config.datasets.tempDir, 'datasets', `view-${randomUUID()}.parquet`);
    await fs.promises.writeFile(written, parquet.rawPayload);
    try {
      const rows = await t.app.datasets.pool.use(async (c) => (await c.runAndReadAll(`SELECT * FROM read_parquet('${written}')`)).getRowsJson());
      expect(rows).toEqual([['Banana'], ['Apple'], ['Fig'], ['Elderberry']]);
    } finally {
      await fs.promises.rm(written, { force: true });
    }
  });

  it('refuses a download view naming a column the dataset lacks, where the query says it', async () => {
    const bad = await get(owner, `/datasets/${products.id}/download?format=csv&sort=prize:asc`);
    expect([bad.statusCode, bad.json().errors[0].loc]).toEqual([422, ['query', 'sort', 0, 'column']]);
    const filter = await get(owner, `/datasets/${products.id}/download?format=csv&filters=${encodeURIComponent('[{"column":"qty","op":">","value":"many"}]')}`);
    expect(filter.statusCode).toBe(422);
  });

  it('downloads the stored Parquet snapshot itself, named after the dataset', async () => {
    const res = await get(owner, `/datasets/${cheap.id}/download?format=parquet`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apache.parquet');
    expect(res.headers['content-disposition']).toContain('filename="Cheap.parquet"');
    expect(res.rawPayload.length).toBe(cheap.bytes);
    expect(res.rawPayload.subarray(0, 4).toString()).toBe('PAR1');
    const stored = await t.app.datasets.files.open(cheap.storageKey);
    try {
      expect(res.rawPayload.equals(await fs.promises.readFile(stored.path))).toBe(true);
    } finally {
      stored.release();
    }
  });

  it("answers another user's or a missing dataset's download with 404, and an unknown format with 422", async () => {
    for (const format of ['csv', 'parquet']) {
      const theirs = await get(stranger, `/datasets/${products.id}/download?format=${format}`);
      const missing = await get(owner, `/datasets/${randomUUID()}/download?format=${format}`);
      expect([theirs.statusCode, theirs.json()]).toEqual([404, { detail: 'Dataset not found.' }]);
      expect([missing.statusCode, missing.json()]).toEqual([404, { detail: 'Dataset not found.' }]);
    }
    const bad = await get(owner, `/datasets/${products.id}/download?format=xlsx`);
    expect([bad.statusCode, bad.json().errors[0].loc]).toEqual([422, ['query', 'format']]);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/datasets/${products.id}/download` })).statusCode).toBe(401);
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(doc.paths['/api/v1/datasets/{datasetId}/download'].get.parameters.map((p: { name: string }) => p.name)).toContain('format');
  });

  it('never answers 5xx to garbage in any query parameter', async () => {
    const garbage = [
      '',
      ' ',
      ':',
      ',,,',
      '::desc',
      '%00',
      '[',
      '[null]',
      '[{"column":null,"op":null}]',
      '[{"column":"qty","op":"in","value":[[[[1]]]]}]',
      '[{"column":"qty","op":"=","value":{"a":1}}]',
      '[{"column":"name","op":"=","value":"\\u0000"}]',
      '1e309',
      '-1',
      'x'.repeat(3000),
      '\u{1F600}',
      '["a"]',
    ];
    for (const key of ['page', 'page_size', 'sort', 'columns', 'filters']) {
      for (const value of garbage) {
        const res = await get(owner, `/datasets/${products.id}/records?${key}=${encodeURIComponent(value)}`);
        expect([key, value.slice(0, 40), res.statusCode < 500]).toEqual([key, value.slice(0, 40), true]);
        if (res.statusCode >= 400) expect(res.json().errors ?? res.json().detail).toBeTruthy();
      }
    }
  });
});
