import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';

describe('history: commits, undo, redo, restore', () => {
  let t: TestApp;
  let api: ReturnType<typeof workflowClient>;
  let stranger: ReturnType<typeof workflowClient>;

  beforeAll(async () => {
    t = await createTestApp();
    api = workflowClient(t.app, (await signedInUser(t.app, { name: 'Hedy' })).auth);
    stranger = workflowClient(t.app, (await signedInUser(t.app)).auth);
  });
  afterAll(() => t.close());

  const stepNames = async (id: string) => (await api.getWorkflow(id)).steps.map((s: { name: string }) => s.name);
  const undo = (workflow_id: string) => api.call('POST', '/workflow-history/undo', { workflow_id });
  const redo = (workflow_id: string) => api.call('POST', '/workflow-history/redo', { workflow_id });

  it('edit, edit, undo, redo, edit clears redo', async () => {
    const wf = await api.createWorkflow();
    const a = await api.addStep(wf.id, 'import_csv', { name: 'A' });
    await api.addStep(wf.id, 'filter', { name: 'B', inputs: [a.id] });
    expect(await stepNames(wf.id)).toEqual(['A', 'B']);

    const undone = await undo(wf.id);
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ can_undo: true, can_redo: true, message: 'Undid: Added step B' });
    expect(await stepNames(wf.id)).toEqual(['A']);

    const redone = await redo(wf.id);
    expect(redone.body.message).toBe('Redid: Added step B');
    expect(await stepNames(wf.id)).toEqual(['A', 'B']);

    await undo(wf.id);
    await undo(wf.id);
    expect(await stepNames(wf.id)).toEqual([]);
    const nothing = await undo(wf.id);
    expect(nothing.status).toBe(409);
    expect(nothing.body.detail).toBe('There is nothing to undo.');

    await api.addStep(wf.id, 'import_dataset', { name: 'C' });
    const cleared = await redo(wf.id);
    expect(cleared.status).toBe(409);
    expect(cleared.body.detail).toBe('There is nothing to redo.');
    expect(await stepNames(wf.id)).toEqual(['C']);
  });

  it('undoes variable, param and rename edits too, and keeps secret values sealed', async () => {
    const wf = await api.createWorkflow('Before');
    await api.ok('PUT', `/workflows/${wf.id}`, { name: 'After' });
    await api.ok('POST', `/workflows/${wf.id}/variables`, { name: 'token', type: 'secret', value: 's3cret' });
    await undo(wf.id);
    expect((await api.getWorkflow(wf.id)).variables).toEqual([]);
    // The history never holds secret values: a secret deleted meanwhile comes back empty, and says so.
    const redone = await redo(wf.id);
    expect(redone.body.warnings).toEqual(['The secret token is back without its value (history never keeps secret values). Set its value again.']);
    const restored = (await api.getWorkflow(wf.id)).variables[0];
    expect(restored).toMatchObject({ name: 'token', value: null, has_value: false });
    await undo(wf.id);
    await undo(wf.id);
    expect((await api.getWorkflow(wf.id)).name).toBe('Before');
  });

  it('lists commits newest first with author and changes, and reads one with its state', async () => {
    const wf = await api.createWorkflow();
    const step = await api.addStep(wf.id, 'sort', { name: 'Order' });
    await api.ok('PATCH', `/workflow-steps/${step.id}/param-inputs/partial`, { param_inputs: { direction: 'descending' } });
    const list = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id });
    expect(list.total).toBe(3);
    expect(list.items.map((c: { seq: number; kind: string; message: string }) => [c.seq, c.kind, c.message])).toEqual([
      [3, 'edit', 'Changed the settings of Order'],
      [2, 'edit', 'Added step Order'],
      [1, 'create', 'Created the workflow'],
    ]);
    expect(list.items[0]).toMatchObject({ author: { name: 'Hedy' }, changes: [{ entity: 'step', id: step.id, op: 'update', fields: ['param_inputs'] }] });

    const detail = await api.ok('GET', `/workflow-history/commits/${list.items[1].id}`);
    expect(detail.state.steps).toEqual([expect.objectContaining({ id: step.id, name: 'Order' })]);
    expect(detail.state.steps[0].param_inputs.direction).not.toBe('descending');
  });

  it('restores a commit as a new, undoable commit', async () => {
    const wf = await api.createWorkflow();
    await api.addStep(wf.id, 'import_csv', { name: 'One' });
    await api.addStep(wf.id, 'import_csv', { name: 'Two' });
    const { items } = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id });
    const afterOne = items.find((c: { seq: number }) => c.seq === 2);
    const restored = await api.call('POST', `/workflow-history/restore/${afterOne.id}`);
    expect(restored.status).toBe(200);
    expect(restored.body.message).toBe('Restored #2 (Added step One)');
    expect(await stepNames(wf.id)).toEqual(['One']);
    expect(restored.body).toMatchObject({ version: 4, can_redo: false });
    await undo(wf.id);
    expect(await stepNames(wf.id)).toEqual(['One', 'Two']);
  });

  it('refuses a stale If-Match on undo and restore', async () => {
    const wf = await api.createWorkflow();
    await api.addStep(wf.id, 'import_csv');
    const stale = await api.call('POST', '/workflow-history/undo', { workflow_id: wf.id, version: 1 });
    expect(stale.status).toBe(409);
    const { items } = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id });
    const staleRestore = await api.call('POST', `/workflow-history/restore/${items[1].id}`, undefined, { 'if-match': '"1"' });
    expect(staleRestore.status).toBe(409);
    expect((await api.getWorkflow(wf.id)).steps).toHaveLength(1);
  });

  it("hides another user's history: 404 for their commits and workflow", async () => {
    const wf = await api.createWorkflow();
    await api.addStep(wf.id, 'import_csv');
    const { items } = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id });
    expect((await stranger.call('GET', `/workflow-history/commits/${items[0].id}`)).status).toBe(404);
    expect((await stranger.call('POST', `/workflow-history/restore/${items[1].id}`)).status).toBe(404);
    expect((await stranger.call('POST', '/workflow-history/redo', { workflow_id: wf.id })).status).toBe(404);
    expect((await api.getWorkflow(wf.id)).steps).toHaveLength(1);
  });
});
