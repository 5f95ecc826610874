import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';

describe('variables', () => {
  let t: TestApp;
  let api: ReturnType<typeof workflowClient>;
  let stranger: ReturnType<typeof workflowClient>;

  beforeAll(async () => {
    t = await createTestApp();
    api = workflowClient(t.app, (await signedInUser(t.app)).auth);
    stranger = workflowClient(t.app, (await signedInUser(t.app)).auth);
  });
  afterAll(() => t.close());

  it('creates, reads, changes and deletes typed variables', async () => {
    const wf = await api.createWorkflow();
    const created = await api.call('POST', `/workflows/${wf.id}/variables`, { name: 'threshold', type: 'number', value: 0.5, description: 'Minimum score' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'threshold', type: 'number', value: 0.5, has_value: true, description: 'Minimum score', workflow_version: 2 });
    const id = created.body.id;
    expect(await api.ok('GET', `/workflows/${wf.id}/variables/${id}`)).toMatchObject({ value: 0.5 });
    const changed = await api.ok('PUT', `/workflows/${wf.id}/variables/${id}`, { value: 0.75 });
    expect(changed.value).toBe(0.75);
    const retyped = await api.ok('PUT', `/workflows/${wf.id}/variables/${id}`, { type: 'string' });
    expect(retyped).toMatchObject({ type: 'string', value: null, has_value: false });
    expect(await api.ok('DELETE', `/workflows/${wf.id}/variables/${id}`)).toEqual({ message: 'Variable deleted.' });
    expect(await api.ok('GET', `/workflows/${wf.id}/variables`)).toEqual([]);
  });

  it('never returns a secret in plain, and stores it encrypted', async () => {
    const wf = await api.createWorkflow();
    const secret = await api.ok('POST', `/workflows/${wf.id}/variables`, { name: 'api_key', type: 'secret', value: 'sk-live-123' });
    expect(secret).toMatchObject({ value: null, has_value: true });
    const everywhere = JSON.stringify([
      await api.getWorkflow(wf.id),
      await api.ok('GET', `/workflows/${wf.id}/variables`),
      await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id }),
    ]);
    expect(everywhere).not.toContain('sk-live-123');
    const row = await t.app.db.selectFrom('workflow_variables').select('value').where('id', '=', secret.id).executeTakeFirstOrThrow();
    expect(row.value).toMatch(/^v1:/);
    expect(t.app.secrets.open(row.value!)).toBe('sk-live-123');
    // Turning a secret into plain text drops the value rather than revealing it.
    expect(await api.ok('PUT', `/workflows/${wf.id}/variables/${secret.id}`, { type: 'string' })).toMatchObject({ value: null, has_value: false });
  });

  it('refuses values of the wrong type, bad names and a taken name', async () => {
    const wf = await api.createWorkflow();
    const wrong = await api.call('POST', `/workflows/${wf.id}/variables`, { name: 'n', type: 'number', value: 'ten' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([{ msg: 'The value does not fit the type number.', loc: ['body', 'value'] }]);
    const badName = await api.call('POST', `/workflows/${wf.id}/variables`, { name: 'my var', type: 'string' });
    expect(badName.status).toBe(422);
    expect(badName.body.errors[0].loc).toEqual(['body', 'name']);
    await api.ok('POST', `/workflows/${wf.id}/variables`, { name: 'city', type: 'string', value: 'Paris' });
    const taken = await api.call('POST', `/workflows/${wf.id}/variables`, { name: 'city', type: 'string' });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual([{ msg: 'This workflow already has a variable named city.', loc: ['body', 'name'] }]);
  });

  it('answers variable-fields with references for a step', async () => {
    const wf = await api.createWorkflow();
    await api.ok('POST', `/workflows/${wf.id}/variables`, { name: 'threshold', type: 'number', value: 3 });
    const source = await api.addStep(wf.id, 'import_csv');
    const filter = await api.addStep(wf.id, 'filter', { inputs: [source.id] });
    const fields = await api.ok('GET', `/workflows/${wf.id}/steps/${filter.id}/variable-fields`);
    expect(fields).toEqual({
      variables: [{ name: 'threshold', type: 'number', reference: '{{var.threshold}}' }],
      fields: [],
      notes: ['Columns of the input appear here once the steps before this one have run.'],
      // Reading a CSV is free and calls nothing outside: the editor may preview it unasked.
      preview_step_ids: [source.id],
    });
    expect((await api.call('GET', `/workflows/${wf.id}/steps/nope/variable-fields`)).status).toBe(404);
  });

  it('never offers to preview unasked a chain that calls outside or costs credits', async () => {
    const wf = await api.createWorkflow();
    const fromApi = await api.addStep(wf.id, 'import_http_json', { param_inputs: { url: 'https://example.com/items.json' } });
    const kept = await api.addStep(wf.id, 'filter', { inputs: [fromApi.id] });
    const after = await api.addStep(wf.id, 'limit', { inputs: [kept.id] });
    expect((await api.ok('GET', `/workflows/${wf.id}/steps/${after.id}/variable-fields`)).preview_step_ids).toEqual([]);
    const csv = await api.addStep(wf.id, 'import_csv');
    const enriched = await api.addStep(wf.id, 'ai_summarize', { inputs: [csv.id] });
    const next = await api.addStep(wf.id, 'limit', { inputs: [enriched.id] });
    expect((await api.ok('GET', `/workflows/${wf.id}/steps/${next.id}/variable-fields`)).preview_step_ids).toEqual([]);
    expect((await api.ok('GET', `/workflows/${wf.id}/steps/${enriched.id}/variable-fields`)).preview_step_ids).toEqual([csv.id]);
  });

  it("lists each input's columns with its place among the inputs: a join's two sides may share a name", async () => {
    const wf = await api.createWorkflow();
    const table = (columns: { name: string; type: string }[]) => api.addStep(wf.id, 'table_input', { param_inputs: { columns } });
    const people = await table([
      { name: 'id', type: 'integer' },
      { name: 'name', type: 'text' },
    ]);
    const orders = await table([
      { name: 'id', type: 'integer' },
      { name: 'person_id', type: 'integer' },
    ]);
    const join = await api.addStep(wf.id, 'join', { inputs: [people.id, orders.id] });
    const { fields } = await api.ok('GET', `/workflows/${wf.id}/steps/${join.id}/variable-fields`);
    expect(fields.map((f: { name: string; input_index: number; from_step_id: string }) => [f.input_index, f.name, f.from_step_id])).toEqual([
      [0, 'id', people.id],
      [0, 'name', people.id],
      [1, 'id', orders.id],
      [1, 'person_id', orders.id],
    ]);
  });

  it("answers 404 for another user's variables and leaves them alone", async () => {
    const wf = await api.createWorkflow();
    const v = await api.ok('POST', `/workflows/${wf.id}/variables`, { name: 'x', type: 'boolean', value: true });
    for (const [method, body] of [['GET'], ['PUT', { value: false }], ['DELETE']] as const) {
      expect((await stranger.call(method, `/workflows/${wf.id}/variables/${v.id}`, body)).status).toBe(404);
    }
    expect(await api.ok('GET', `/workflows/${wf.id}/variables/${v.id}`)).toMatchObject({ value: true });
  });
});
