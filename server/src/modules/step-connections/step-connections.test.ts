import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';

describe('step connections', () => {
  let t: TestApp;
  let api: ReturnType<typeof workflowClient>;

  beforeAll(async () => {
    t = await createTestApp();
    api = workflowClient(t.app, (await signedInUser(t.app)).auth);
  });
  afterAll(() => t.close());

  const inputsByName = async (id: string) => {
    const wf = await api.getWorkflow(id);
    const names = new Map(wf.steps.map((s: { id: string; name: string }) => [s.id, s.name]));
    return Object.fromEntries(wf.steps.map((s: { name: string; inputs: string[] }) => [s.name, s.inputs.map((i) => names.get(i))]));
  };

  it('inserts the steps carrying the tags after a step and reconnects what followed it', async () => {
    const wf = await api.createWorkflow();
    const load = await api.addStep(wf.id, 'import_csv', { name: 'Load' });
    await api.addStep(wf.id, 'export_csv', { name: 'Save', inputs: [load.id] });
    const res = await api.call('POST', `/workflows/${wf.id}/steps/insert-by-tags`, { tags: ['deduplicate'], after_step_id: load.id });
    expect(res.status).toBe(201);
    expect(res.body.steps).toEqual([expect.objectContaining({ step_type: 'deduplicate', inputs: [load.id] })]);
    const dedupeName = res.body.steps[0].name;
    expect(await inputsByName(wf.id)).toEqual({ Load: [], Save: [dedupeName], [dedupeName]: ['Load'] });
  });

  it('refuses tags no step type carries', async () => {
    const wf = await api.createWorkflow();
    const res = await api.call('POST', `/workflows/${wf.id}/steps/insert-by-tags`, { tags: ['time-travel'] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['body', 'tags']);
  });

  it('deletes several steps, joining the chain over them, and reports links it cannot keep', async () => {
    const wf = await api.createWorkflow();
    const a = await api.addStep(wf.id, 'import_csv', { name: 'A' });
    const b = await api.addStep(wf.id, 'filter', { name: 'B', inputs: [a.id] });
    const c = await api.addStep(wf.id, 'sort', { name: 'C', inputs: [b.id] });
    await api.addStep(wf.id, 'export_csv', { name: 'D', inputs: [c.id] });
    const x = await api.addStep(wf.id, 'import_csv', { name: 'X' });
    const y = await api.addStep(wf.id, 'import_csv', { name: 'Y' });
    const j = await api.addStep(wf.id, 'join', { name: 'J', inputs: [x.id, y.id] });
    await api.addStep(wf.id, 'limit', { name: 'L', inputs: [j.id] });

    const res = await api.call('DELETE', `/workflows/${wf.id}/steps/batch?step_ids=${b.id},${c.id}&step_ids=${j.id}`);
    expect(res.status).toBe(200);
    expect(res.body.deleted.sort()).toEqual([b.id, c.id, j.id].sort());
    expect(res.body.warnings).toEqual(['"L" lost its input "J": connect it again.']);
    expect(await inputsByName(wf.id)).toEqual({ A: [], D: ['A'], X: [], Y: [], L: ['X'] });
  });

  it('deletes nothing when an id is unknown', async () => {
    const wf = await api.createWorkflow();
    const a = await api.addStep(wf.id, 'import_csv');
    const res = await api.call('DELETE', `/workflows/${wf.id}/steps/batch?step_ids=${a.id},ghost`);
    expect(res.status).toBe(404);
    expect((await api.getWorkflow(wf.id)).steps).toHaveLength(1);
  });
});

describe('insert-by-tags sees the catalogue as admins edited it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: 'chief@example.com' });
  });
  afterAll(() => t.close());

  it('finds a step by a tag an admin gave it', async () => {
    const admin = workflowClient(t.app, (await signedInUser(t.app, { email: 'chief@example.com' })).auth);
    await admin.ok('PATCH', '/workflow-step-infos/by-tag/deduplicate', { tags: ['deduplicate', 'cleanup-kit'] });
    const wf = await admin.createWorkflow();
    const res = await admin.call('POST', `/workflows/${wf.id}/steps/insert-by-tags`, { tags: ['cleanup-kit'] });
    expect(res.status).toBe(201);
    expect(res.body.steps.map((s: { step_type: string }) => s.step_type)).toEqual(['deduplicate']);
  });
});
