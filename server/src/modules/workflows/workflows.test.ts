import pg from 'pg';
import { createTestApp, onPostgres, signedInUser, type TestApp } from '../../test/test-app';
import { waitUntil } from '../../test/wait';
import { workflowClient } from '../../test/workflow-helpers';
import { DatasetsService } from '../datasets/datasets.service';

type Auth = { authorization: string };

describe('workflows', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof signedInUser>>;
  let bob: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signedInUser(t.app, { name: 'Alice' });
    bob = await signedInUser(t.app, { name: 'Bob' });
  });
  afterAll(() => t.close());

  const create = async (auth: Auth, body: object = { name: 'Leads', description: 'Enrich leads', tags: ['sales'] }) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/workflows/', headers: auth, payload: body });
    expect(res.statusCode).toBe(201);
    return res.json();
  };

  it('creates a workflow at version 1 with an ETag and a message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/workflows', headers: alice.auth, payload: { name: ' Leads ', tags: ['sales', 'crm'] } });
    expect(res.statusCode).toBe(201);
    expect(res.headers.etag).toBe('"1"');
    expect(res.json()).toMatchObject({
      name: 'Leads',
      description: '',
      tags: ['sales', 'crm'],
      visibility: 'private',
      version: 1,
      steps: [],
      variables: [],
      can_undo: false,
      can_redo: false,
      owner_id: alice.user.id,
      message: 'Workflow created.',
    });
  });

  // Edits of one workflow wait for its row lock; waiting, they must not hold every connection.
  (onPostgres() ? it : it.skip)('answers other requests while more edits of one workflow than the pool has connections wait for it', async () => {
    const api = workflowClient(t.app, alice.auth);
    const workflow = await api.createWorkflow('Edited by many');
    const step = await api.addStep(workflow.id, 'limit', { param_inputs: { count: 1 } });
    const before = (await api.getWorkflow(workflow.id)).version as number;
    // Another process in the middle of an edit of the workflow (holder), and a look at the server's
    // sessions from outside that transaction (inside one, PostgreSQL shows a snapshot of its start).
    const holder = new pg.Client({ connectionString: t.config.databaseUrl! });
    const observer = new pg.Client({ connectionString: t.config.databaseUrl! });
    await Promise.all([holder.connect(), observer.connect()]);
    const waitingForLocks = async () =>
      (await observer.query("select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()")).rows[0]
        .n as number;
    try {
      await holder.query('begin');
      await holder.query('select id from workflows where id = $1 for update', [workflow.id]);
      const edits = Array.from({ length: 12 }, (_, i) =>
        api.call('PATCH', `/workflow-steps/${step.id}/param-inputs/partial`, { param_inputs: { count: i + 2 } }),
      );
      await waitUntil('an edit waiting for the row lock', async () => (await waitingForLocks()) >= 1);
      let answered = false;
      const me = t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: alice.auth }).then((res) => ((answered = true), res));
      await waitUntil('GET /users/me answered while the edits wait', () => answered);
      expect((await me).statusCode).toBe(200);
      // This process sent one of the twelve to wait on the lock; the others wait their turn in it.
      expect(await waitingForLocks()).toBe(1);
      await holder.query('commit');
      const answers = await Promise.all(edits);
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
      expect((await api.getWorkflow(workflow.id)).version).toBe(before + 12);
    } finally {
      await Promise.all([holder.end(), observer.end()]);
    }
  });

  it('refuses a blank name, duplicate tags and unknown fields with located 422s', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/workflows', headers: alice.auth, payload: { name: '  ', tags: ['a', 'a'], owner_id: 'x' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        { msg: 'Must not be blank', loc: ['body', 'name'] },
        { msg: 'Unknown field', loc: ['body', 'owner_id'] },
        expect.objectContaining({ loc: ['body', 'tags'] }),
      ]),
    );
  });

  it('lists only my workflows, with search, sort and paging', async () => {
    const user = await signedInUser(t.app);
    for (const name of ['Beta report', 'alpha import', 'Gamma export']) await create(user.auth, { name });
    await create(bob.auth, { name: 'alpha of bob' });
    const all = (await t.app.inject({ url: '/api/v1/workflows/?sort=name&order=asc', headers: user.auth })).json();
    expect(all.items.map((w: { name: string }) => w.name)).toEqual(['alpha import', 'Beta report', 'Gamma export']);
    expect(all).toMatchObject({ total: 3, page: 1, page_size: 50 });
    const found = (await t.app.inject({ url: '/api/v1/workflows?q=ALPHA', headers: user.auth })).json();
    expect(found.items.map((w: { name: string }) => w.name)).toEqual(['alpha import']);
    const paged = (await t.app.inject({ url: '/api/v1/workflows?sort=name&order=asc&page=2&page_size=2', headers: user.auth })).json();
    expect(paged).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(paged.items.map((w: { name: string }) => w.name)).toEqual(['Gamma export']);
    // A full page and a page past the end do not tell the total: it is counted, with the search too.
    const list = async (query: string) => (await t.app.inject({ url: `/api/v1/workflows?${query}`, headers: user.auth })).json();
    expect(await list('sort=name&order=asc&page=1&page_size=2')).toMatchObject({ total: 3, items: [{ name: 'alpha import' }, { name: 'Beta report' }] });
    expect(await list('page=3&page_size=2')).toMatchObject({ total: 3, items: [] });
    expect(await list('q=A&sort=name&order=desc&page_size=1')).toMatchObject({ total: 3, items: [{ name: 'Gamma export' }] });
    expect(await list('q=report&page=2&page_size=1')).toMatchObject({ total: 1, items: [] });
    expect((await t.app.inject({ url: '/api/v1/workflows?sort=owner', headers: user.auth })).statusCode).toBe(422);
  });

  it('treats a percent sign in the search as text', async () => {
    const user = await signedInUser(t.app);
    await create(user.auth, { name: '100% done' });
    await create(user.auth, { name: '100 done' });
    const found = (await t.app.inject({ url: `/api/v1/workflows?q=${encodeURIComponent('0%')}`, headers: user.auth })).json();
    expect(found.items.map((w: { name: string }) => w.name)).toEqual(['100% done']);
  });

  it("answers 404 for another user's workflow on every call, and never changes it", async () => {
    const workflow = await create(alice.auth);
    const id = workflow.id;
    const calls = [
      { method: 'GET', url: `/api/v1/workflows/${id}` },
      { method: 'PUT', url: `/api/v1/workflows/${id}`, payload: { name: 'Hijacked' } },
      { method: 'DELETE', url: `/api/v1/workflows/${id}` },
      { method: 'POST', url: `/api/v1/workflows/${id}/publish` },
      { method: 'GET', url: `/api/v1/workflows/${id}/info` },
      { method: 'GET', url: `/api/v1/workflows/${id}/variables` },
      { method: 'POST', url: `/api/v1/workflows/${id}/variables`, payload: { name: 'x', type: 'string' } },
      { method: 'POST', url: `/api/v1/workflows/${id}/clone` },
      { method: 'POST', url: `/api/v1/workflow-history/undo`, payload: { workflow_id: id } },
      { method: 'POST', url: `/api/v1/workflow-history/commits`, payload: { workflow_id: id } },
      { method: 'GET', url: `/api/v1/workflow-steps/?workflow_id=${id}` },
      { method: 'POST', url: `/api/v1/workflow-steps/`, payload: { workflow_id: id, step_type: 'filter' } },
      { method: 'POST', url: `/api/v1/workflows/${id}/steps/insert-by-tags`, payload: { tags: ['filter'] } },
    ] as const;
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: bob.auth });
      expect([call.method, call.url, res.statusCode]).toEqual([call.method, call.url, 404]);
      expect(res.json().detail).toBe('Workflow not found.');
    }
    const after = (await t.app.inject({ url: `/api/v1/workflows/${id}`, headers: alice.auth })).json();
    expect(after).toMatchObject({ name: 'Leads', version: 1, steps: [], variables: [] });
  });

  it('updates fields, records a commit, and refuses a stale version with 409', async () => {
    const workflow = await create(alice.auth);
    const url = `/api/v1/workflows/${workflow.id}`;
    const first = await t.app.inject({ method: 'PUT', url, headers: { ...alice.auth, 'if-match': '"1"' }, payload: { description: 'New words' } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ description: 'New words', version: 2, can_undo: true });
    expect(first.headers.etag).toBe('"2"');

    const stale = await t.app.inject({ method: 'PUT', url, headers: { ...alice.auth, 'if-match': '"1"' }, payload: { name: 'Overwrite' } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toBe('This workflow was changed meanwhile (it is now at version 2). Reload it and make your change again.');
    const staleBody = await t.app.inject({ method: 'PUT', url, headers: alice.auth, payload: { name: 'Overwrite', version: 1 } });
    expect(staleBody.statusCode).toBe(409);
    expect((await t.app.inject({ url, headers: alice.auth })).json()).toMatchObject({ name: 'Leads', version: 2 });

    const same = await t.app.inject({ method: 'PUT', url, headers: alice.auth, payload: { description: 'New words' } });
    expect(same.json().version).toBe(2); // nothing changed, nothing committed
  });

  it('honours If-Match on publish and delete: a stale one answers 409 and changes nothing', async () => {
    const workflow = await create(alice.auth);
    const url = `/api/v1/workflows/${workflow.id}`;
    await t.app.inject({ method: 'PUT', url, headers: alice.auth, payload: { description: 'Second version' } });
    const staleDetail = 'This workflow was changed meanwhile (it is now at version 2). Reload it and make your change again.';

    const stalePublish = await t.app.inject({ method: 'POST', url: `${url}/publish`, headers: { ...alice.auth, 'if-match': '"1"' } });
    expect([stalePublish.statusCode, stalePublish.json().detail]).toEqual([409, staleDetail]);
    expect((await t.app.inject({ url, headers: alice.auth })).json()).toMatchObject({ visibility: 'private', published_at: null });
    const published = await t.app.inject({ method: 'POST', url: `${url}/publish`, headers: { ...alice.auth, 'if-match': '"2"' } });
    expect(published.statusCode).toBe(200);
    expect(published.headers.etag).toBe('"2"');
    expect(published.json()).toMatchObject({ visibility: 'published', version: 2 });

    const staleDelete = await t.app.inject({ method: 'DELETE', url, headers: { ...alice.auth, 'if-match': '"1"' } });
    expect([staleDelete.statusCode, staleDelete.json().detail]).toEqual([409, staleDetail]);
    expect((await t.app.inject({ url, headers: alice.auth })).statusCode).toBe(200);
    const deleted = await t.app.inject({ method: 'DELETE', url, headers: { ...alice.auth, 'if-match': '"2"' } });
    expect(deleted.statusCode).toBe(200);
    expect((await t.app.inject({ url, headers: alice.auth })).statusCode).toBe(404);
  });

  it('keeps every concurrent unversioned edit: none is lost', async () => {
    const workflow = await create(alice.auth);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/workflows/${workflow.id}/variables`,
          headers: alice.auth,
          payload: { name: `v${i}`, type: 'number', value: i },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const after = (await t.app.inject({ url: `/api/v1/workflows/${workflow.id}`, headers: alice.auth })).json();
    expect(after.variables).toHaveLength(8);
    expect(after.version).toBe(9);
  });

  it('deletes a workflow with its steps and history', async () => {
    const workflow = await create(alice.auth);
    await t.app.inject({ method: 'POST', url: '/api/v1/workflow-steps', headers: alice.auth, payload: { workflow_id: workflow.id, step_type: 'import_csv' } });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/workflows/${workflow.id}`, headers: alice.auth });
    expect(res.json()).toEqual({ message: 'Workflow deleted.' });
    expect((await t.app.inject({ url: `/api/v1/workflows/${workflow.id}`, headers: alice.auth })).statusCode).toBe(404);
    expect(await t.app.db.selectFrom('workflow_steps').where('workflow_id', '=', workflow.id).selectAll().execute()).toEqual([]);
    expect(await t.app.db.selectFrom('workflow_commits').where('workflow_id', '=', workflow.id).selectAll().execute()).toEqual([]);
  });

  it('answers info: step count, categories and an estimated cost', async () => {
    const workflow = await create(alice.auth);
    for (const step_type of ['import_csv', 'filter', 'ai_prompt']) {
      await t.app.inject({ method: 'POST', url: '/api/v1/workflow-steps', headers: alice.auth, payload: { workflow_id: workflow.id, step_type } });
    }
    const info = (await t.app.inject({ url: `/api/v1/workflows/${workflow.id}/info`, headers: alice.auth })).json();
    expect(info).toMatchObject({ id: workflow.id, step_count: 3, variable_count: 0, last_run: null, datasets: [] });
    expect(info.steps_by_category).toEqual({ source: 1, transform: 1, enrich: 1 });
    expect(info.estimated_cost.credits_per_record).toBeGreaterThan(0);
    expect(info.estimated_cost.notes).toContain('Free.');
    const chinese = (await t.app.inject({ url: `/api/v1/workflows/${workflow.id}/info`, headers: { ...alice.auth, 'accept-language': 'zh-CN' } })).json();
    expect(chinese.estimated_cost.notes).toContain('免费。');
    expect(chinese.estimated_cost.notes).not.toContain('Free.');
  });

  describe('publishing and the gallery', () => {
    it('publishes a snapshot without secrets, shows it signed out, and unpublishes', async () => {
      const workflow = await create(alice.auth, { name: 'Public thing', description: 'Does good', tags: ['demo'] });
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/workflow-steps',
        headers: alice.auth,
        payload: { workflow_id: workflow.id, step_type: 'import_csv' },
      });
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/workflows/${workflow.id}/variables`,
        headers: alice.auth,
        payload: { name: 'api_key', type: 'secret', value: 'sk-very-secret' },
      });
      const published = await t.app.inject({ method: 'POST', url: `/api/v1/workflows/${workflow.id}/publish`, headers: alice.auth });
      expect(published.json()).toMatchObject({ visibility: 'published', message: 'Published to the gallery.' });

      // Edits after publishing stay private until published again.
      await t.app.inject({ method: 'PUT', url: `/api/v1/workflows/${workflow.id}`, headers: alice.auth, payload: { name: 'Private rename' } });

      const gallery = await t.app.inject({ url: '/api/v1/workflows/public?q=public' });
      expect(gallery.statusCode).toBe(200);
      const item = gallery.json().items.find((w: { id: string }) => w.id === workflow.id);
      expect(item).toEqual({
        id: workflow.id,
        name: 'Public thing',
        description: 'Does good',
        tags: ['demo'],
        author_name: 'Alice',
        step_count: 1,
        clone_count: 0,
        published_at: expect.any(String),
      });
      const stored = await t.app.db.selectFrom('workflows').select('published_snapshot').where('id', '=', workflow.id).executeTakeFirstOrThrow();
      expect(stored.published_snapshot).not.toContain('v1:');

      await t.app.inject({ method: 'POST', url: `/api/v1/workflows/${workflow.id}/publish?published=false`, headers: alice.auth });
      const after = (await t.app.inject({ url: '/api/v1/workflows/public?q=public' })).json();
      expect(after.items.find((w: { id: string }) => w.id === workflow.id)).toBeUndefined();
    });
  });
});

describe('the gallery copy: versions, updates and the public preview', () => {
  let t: TestApp;
  let alice: ReturnType<typeof workflowClient>;
  let bob: ReturnType<typeof workflowClient>;
  let aliceAuth: Auth;
  let aliceId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await signedInUser(t.app, { name: 'Alice Author' });
    aliceAuth = signedIn.auth;
    aliceId = signedIn.user.id as string;
    alice = workflowClient(t.app, aliceAuth);
    bob = workflowClient(t.app, (await signedInUser(t.app, { name: 'Bob' })).auth);
  });
  afterAll(() => t.close());

  const anonymous = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ url: `/api/v1${url}`, headers });
    return { status: res.statusCode, body: res.json() };
  };
  const galleryItem = async (id: string) => (await anonymous('/workflows/public?page_size=100')).body.items.find((w: { id: string }) => w.id === id);

  it('records the version published, keeps showing it after edits, and publishing again updates the copy', async () => {
    const wf = await alice.createWorkflow('First name');
    await alice.addStep(wf.id, 'import_csv', { name: 'Load' });
    const published = await alice.call('POST', `/workflows/${wf.id}/publish?published=true`, undefined, { 'if-match': '"2"' });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ visibility: 'published', version: 2, published_version: 2 });

    await alice.ok('PUT', `/workflows/${wf.id}`, { name: 'Second name' });
    expect(await alice.getWorkflow(wf.id)).toMatchObject({ name: 'Second name', version: 3, published_version: 2 });
    // The gallery shows what was published, not the live edit.
    expect((await galleryItem(wf.id)).name).toBe('First name');
    expect((await anonymous(`/workflows/public/${wf.id}`)).body).toMatchObject({ name: 'First name', step_count: 1 });

    // A republish of a version the author no longer has on screen is refused and changes nothing.
    const stale = await alice.call('POST', `/workflows/${wf.id}/publish?published=true`, undefined, { 'if-match': '"2"' });
    expect(stale.status).toBe(409);
    expect((await galleryItem(wf.id)).name).toBe('First name');

    const firstPublishedAt = (await galleryItem(wf.id)).published_at;
    const again = await alice.call('POST', `/workflows/${wf.id}/publish?published=true`, undefined, { 'if-match': '"3"' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ version: 3, published_version: 3, message: 'Published to the gallery.' });
    expect(again.headers.etag).toBe('"3"');
    expect((await galleryItem(wf.id)).name).toBe('Second name');
    expect((await galleryItem(wf.id)).published_at >= firstPublishedAt).toBe(true);
    expect((await anonymous(`/workflows/public/${wf.id}`)).body).toMatchObject({ name: 'Second name' });

    const unpublished = await alice.ok('POST', `/workflows/${wf.id}/publish?published=false`);
    expect(unpublished).toMatchObject({ visibility: 'private', published_version: null, published_at: null });
  });

  it('answers the preview signed out, with publish-time steps and connections, and withholds secrets and file ids', async () => {
    const upload = `--b\r\nContent-Disposition: form-data; name="files"; filename="leads.csv"\r\nContent-Type: text/csv\r\n\r\nid\n1\n\r\n--b--\r\n`;
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files/',
      headers: { ...aliceAuth, 'content-type': 'multipart/form-data; boundary=b' },
      payload: upload,
    });
    const fileId: string = uploaded.json().items[0].id;
    // A dataset of Alice's own, as a run of hers would have left it (a step may only name its owner's).
    const dataset = await t.app.datasets.write({
      ownerId: aliceId,
      name: 'Last run',
      source: { columns: [{ name: 'id', type: 'BIGINT' }], batches: [[{ id: 1 }]] },
    });
    await new DatasetsService(t.app.db, t.app.datasets).registerDataset(dataset);
    const datasetId = dataset.id;
    const wf = await alice.createWorkflow('Enrich leads');
    await alice.ok('PUT', `/workflows/${wf.id}`, { description: 'Calls the CRM', tags: ['crm'] });
    await alice.ok('POST', `/workflows/${wf.id}/variables`, { name: 'crm_token', type: 'secret', value: 'sk-variable-secret' });
    const load = await alice.addStep(wf.id, 'import_csv', {
      name: 'Load leads',
      param_inputs: { file: fileId, delimiter: 'semicolon' },
      position: { x: 10, y: 20 },
    });
    const call = await alice.addStep(wf.id, 'http_request', {
      name: 'Ask the CRM',
      inputs: [load.id],
      param_inputs: { url: 'https://crm.example.com/{{field.id}}', auth_secret: 'sk-literal-secret' },
    });
    await alice.addStep(wf.id, 'http_request', {
      name: 'By reference',
      inputs: [call.id],
      param_inputs: { url: 'https://x.example.com', auth_secret: '{{var.crm_token}}' },
    });
    await alice.addStep(wf.id, 'import_dataset', { name: 'Last run', param_inputs: { dataset: datasetId } });
    await alice.ok('POST', `/workflows/${wf.id}/publish`);
    // Live edits after publishing stay out of the preview.
    await alice.addStep(wf.id, 'filter', { name: 'Added later' });

    const res = await anonymous(`/workflows/public/${wf.id}/`);
    expect(res.status).toBe(200);
    const detail = res.body;
    expect(detail).toMatchObject({
      id: wf.id,
      name: 'Enrich leads',
      description: 'Calls the CRM',
      tags: ['crm'],
      author_name: 'Alice Author',
      step_count: 4,
      clone_count: 0,
      published_at: expect.any(String),
      variables: [{ name: 'crm_token', type: 'secret', description: '' }],
    });
    expect(detail.steps.map((s: { name: string }) => s.name)).toEqual(['Load leads', 'Ask the CRM', 'By reference', 'Last run']);
    const [loadOut, callOut, byReference, lastRun] = detail.steps;
    expect(loadOut).toMatchObject({ step_type: 'import_csv', type_name: 'Import CSV', category: 'source', position: { x: 10, y: 20 }, inputs: [] });
    expect(loadOut.params).toEqual(
      expect.arrayContaining([
        { name: 'file', label: 'CSV file', type: 'file', value: null, withheld: true },
        { name: 'delimiter', label: expect.any(String), type: 'enum', value: 'semicolon', withheld: false },
      ]),
    );
    // Connections, by the preview's own step ids (not the author's).
    expect(callOut.inputs).toEqual([loadOut.id]);
    expect(byReference.inputs).toEqual([callOut.id]);
    expect(detail.steps.map((s: { id: string }) => s.id)).not.toContain(load.id);
    expect(callOut.params).toEqual(
      expect.arrayContaining([{ name: 'url', label: 'URL', type: 'template', value: 'https://crm.example.com/{{field.id}}', withheld: false }]),
    );
    // A literal secret is not even kept in the gallery's copy; a reference to a variable names no secret.
    expect(callOut.params.find((p: { name: string }) => p.name === 'auth_secret')).toBeUndefined();
    expect(byReference.params).toEqual(
      expect.arrayContaining([{ name: 'auth_secret', label: 'Access token', type: 'secret', value: '{{var.crm_token}}', withheld: false }]),
    );
    expect(lastRun.params).toEqual([{ name: 'dataset', label: expect.any(String), type: 'dataset', value: null, withheld: true }]);
    const text = JSON.stringify(detail);
    for (const leak of [fileId, datasetId, 'sk-literal-secret', 'sk-variable-secret', load.id, call.id, 'Added later']) expect(text).not.toContain(leak);
    const stored = await t.app.db.selectFrom('workflows').select('published_snapshot').where('id', '=', wf.id).executeTakeFirstOrThrow();
    expect(stored.published_snapshot).not.toContain('sk-literal-secret');

    // In the reader's language.
    const chinese = (await anonymous(`/workflows/public/${wf.id}`, { 'accept-language': 'zh-CN' })).body;
    expect(chinese.steps[0]).toMatchObject({ type_name: '导入 CSV' });
    expect(chinese.steps[0].params.find((p: { name: string }) => p.name === 'file').label).toBe('CSV 文件');
  });

  it('never hands on a secret an older gallery copy still holds, in the preview or a clone', async () => {
    const wf = await alice.createWorkflow('Old copy');
    const source = await alice.addStep(wf.id, 'import_csv', { name: 'Load' });
    await alice.addStep(wf.id, 'http_request', {
      name: 'Call',
      inputs: [source.id],
      param_inputs: { url: 'https://x.example.com', auth_secret: 'sk-old-copy' },
    });
    await alice.ok('POST', `/workflows/${wf.id}/publish`);
    // As a copy published before secret params were left out would be stored.
    const live = await alice.getWorkflow(wf.id);
    const snapshot = {
      name: live.name,
      description: '',
      tags: [],
      variables: [],
      steps: live.steps.map((s: { id: string; step_type: string; name: string; param_inputs: object; inputs: string[]; position: object }) => ({
        id: s.id,
        step_type: s.step_type,
        name: s.name,
        param_inputs: s.param_inputs,
        inputs: s.inputs,
        position: s.position,
      })),
    };
    expect(JSON.stringify(snapshot)).toContain('sk-old-copy');
    await t.app.db
      .updateTable('workflows')
      .set({ published_snapshot: JSON.stringify(snapshot) })
      .where('id', '=', wf.id)
      .execute();

    const preview = await anonymous(`/workflows/public/${wf.id}`);
    expect(preview.body.steps[1].params).toEqual(
      expect.arrayContaining([{ name: 'auth_secret', label: 'Access token', type: 'secret', value: null, withheld: true }]),
    );
    expect(JSON.stringify(preview.body)).not.toContain('sk-old-copy');
    const copy = await bob.ok('POST', `/workflows/${wf.id}/clone`);
    expect(JSON.stringify(await bob.getWorkflow(copy.id))).not.toContain('sk-old-copy');
  });

  it('answers 404 for a workflow that is not published, was unpublished, was deleted or does not exist', async () => {
    const never = await alice.createWorkflow('Never published');
    expect(await anonymous(`/workflows/public/${never.id}`)).toEqual({ status: 404, body: { detail: 'Workflow not found.' } });
    // Not even to its owner with a token: the preview is the gallery's, and it is not in it.
    expect((await alice.call('GET', `/workflows/public/${never.id}`)).status).toBe(404);

    const withdrawn = await alice.createWorkflow('Withdrawn');
    await alice.ok('POST', `/workflows/${withdrawn.id}/publish`);
    expect((await anonymous(`/workflows/public/${withdrawn.id}`)).status).toBe(200);
    await alice.ok('POST', `/workflows/${withdrawn.id}/publish?published=false`);
    expect((await anonymous(`/workflows/public/${withdrawn.id}`)).status).toBe(404);
    expect(await galleryItem(withdrawn.id)).toBeUndefined();

    const deleted = await alice.createWorkflow('Deleted');
    await alice.ok('POST', `/workflows/${deleted.id}/publish`);
    await alice.ok('DELETE', `/workflows/${deleted.id}`);
    expect((await anonymous(`/workflows/public/${deleted.id}`)).status).toBe(404);
    expect(await galleryItem(deleted.id)).toBeUndefined();

    expect((await anonymous('/workflows/public/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('is in the OpenAPI document as a call that needs no sign-in', async () => {
    const doc = (await anonymous('/openapi.json')).body;
    const operation = doc.paths['/api/v1/workflows/public/{id}'].get;
    expect(operation.responses['200']).toBeDefined();
    expect(operation.security ?? []).toEqual([]);
  });
});
