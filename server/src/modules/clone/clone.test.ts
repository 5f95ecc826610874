import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';

describe('clone', () => {
  let t: TestApp;
  let alice: ReturnType<typeof workflowClient>;
  let bob: ReturnType<typeof workflowClient>;

  beforeAll(async () => {
    t = await createTestApp();
    alice = workflowClient(t.app, (await signedInUser(t.app, { name: 'Alice' })).auth);
    bob = workflowClient(t.app, (await signedInUser(t.app, { name: 'Bob' })).auth);
  });
  afterAll(() => t.close());

  async function buildWorkflow() {
    const wf = await alice.createWorkflow('Pipeline');
    const a = await alice.addStep(wf.id, 'import_csv', { name: 'Load' });
    const b = await alice.addStep(wf.id, 'filter', { name: 'Keep', inputs: [a.id], param_inputs: { condition: 'x > 1' } });
    await alice.ok('POST', `/workflows/${wf.id}/variables`, { name: 'key', type: 'secret', value: 'hidden' });
    return { wf, a, b };
  }

  it('copies my own workflow with new ids, the same wiring and a fresh history', async () => {
    const { wf, a, b } = await buildWorkflow();
    const res = await alice.call('POST', `/workflows/${wf.id}/clone`);
    expect(res.status).toBe(201);
    const copy = res.body;
    expect(copy).toMatchObject({ name: 'Copy of Pipeline', cloned_from_id: wf.id, version: 1, can_undo: false, message: 'Workflow copied to your account.' });
    const [load, keep] = copy.steps;
    expect([load.id, keep.id]).not.toContain(a.id);
    expect(keep).toMatchObject({ name: 'Keep', inputs: [load.id], param_inputs: { condition: 'x > 1' } });
    expect(copy.variables[0]).toMatchObject({ name: 'key', has_value: true });
    expect(b.id).not.toBe(keep.id);
    const commits = await alice.ok('POST', '/workflow-history/commits', { workflow_id: copy.id });
    expect(commits.items.map((c: { message: string }) => c.message)).toEqual(['Created as a copy']);
  });

  it("copies someone else's workflow only once published, without secret values, and counts it", async () => {
    const { wf } = await buildWorkflow();
    expect((await bob.call('POST', `/workflows/${wf.id}/clone`)).status).toBe(404);
    await alice.ok('POST', `/workflows/${wf.id}/publish`);
    const res = await bob.call('POST', `/workflows/${wf.id}/clone?name=${encodeURIComponent('My pipeline')}`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'My pipeline', steps: [expect.anything(), expect.anything()] });
    expect(res.body.variables[0]).toMatchObject({ name: 'key', has_value: false });
    const gallery = (await bob.ok('GET', '/workflows/public')).items.find((w: { id: string }) => w.id === wf.id);
    expect(gallery.clone_count).toBe(1);
  });

  it('copies a step within its workflow (same inputs) or into another of mine (unconnected)', async () => {
    const { wf, a, b } = await buildWorkflow();
    const inPlace = await alice.call('POST', `/workflow-steps/${b.id}/clone`);
    expect(inPlace.status).toBe(201);
    expect(inPlace.body).toMatchObject({ workflow_id: wf.id, name: 'Keep 2', inputs: [a.id], position: { x: b.position.x + 40, y: b.position.y + 40 } });
    const other = await alice.createWorkflow('Other');
    const moved = await alice.ok('POST', `/workflow-steps/${b.id}/clone?workflow_id=${other.id}&name=Borrowed`);
    expect(moved).toMatchObject({ workflow_id: other.id, name: 'Borrowed', inputs: [], param_inputs: { condition: 'x > 1' } });
    const bobs = await bob.createWorkflow('Bob target');
    expect((await alice.call('POST', `/workflow-steps/${b.id}/clone?workflow_id=${bobs.id}`)).status).toBe(404);
  });
});
