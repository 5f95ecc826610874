import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';
import { HISTORY } from '../workflows/workflow-editor';

/** Bytes a row takes as stored text: what the database has to write for it. */
const rowBytes = (row: object) => Object.values(row).reduce<number>((sum, v) => sum + (typeof v === 'string' ? Buffer.byteLength(v) : v === null ? 0 : 8), 0);

type Step = { id: string; name: string; position: { x: number; y: number } };

describe('history storage: small commits, bounded stacks, merged moves, no secrets', () => {
  let t: TestApp;
  let api: ReturnType<typeof workflowClient>;
  let zh: ReturnType<typeof workflowClient>;

  beforeAll(async () => {
    t = await createTestApp();
    const user = await signedInUser(t.app, { name: 'Grace' });
    api = workflowClient(t.app, user.auth);
    zh = workflowClient(t.app, { ...user.auth, 'accept-language': 'zh-CN' } as { authorization: string });
  });
  afterAll(() => t.close());

  const commitsOf = (workflowId: string) => t.app.db.selectFrom('workflow_commits').selectAll().where('workflow_id', '=', workflowId).orderBy('seq').execute();
  const undo = (workflow_id: string) => api.call('POST', '/workflow-history/undo', { workflow_id });
  const redo = (workflow_id: string) => api.call('POST', '/workflow-history/redo', { workflow_id });
  const move = (stepId: string, x: number, y: number) => api.ok('PUT', `/workflow-steps/${stepId}`, { position: { x, y } });
  const positions = async (workflowId: string) => Object.fromEntries((await api.getWorkflow(workflowId)).steps.map((s: Step) => [s.name, s.position]));

  // Over Jest’s 5 s: builds a 200-step workflow and edits it 700 times through the API (4–7 s on a loaded 2-core machine).
  it('stores a one-param edit of a 200-step workflow in well under 2 KB, and 500 edits later still does', async () => {
    const wf = await api.createWorkflow('Two hundred steps');
    let last = await api.addStep(wf.id, 'import_csv');
    for (let i = 1; i < 200; i++) last = await api.addStep(wf.id, 'filter', { inputs: [last.id] });
    const whole = JSON.stringify(await api.getWorkflow(wf.id));
    expect(whole.length).toBeGreaterThan(40_000);
    const workflowRow = async () => rowBytes(await t.app.db.selectFrom('workflows').selectAll().where('id', '=', wf.id).executeTakeFirstOrThrow());
    const rowBefore = await workflowRow();

    const edit = (i: number) => api.ok('PATCH', `/workflow-steps/${last.id}/param-inputs/partial`, { param_inputs: { condition: `amount > ${i}` } });
    const first = await edit(0);
    const [newest] = (await commitsOf(wf.id)).slice(-1);
    expect(newest).toMatchObject({ seq: first.workflow_version, checkpoint: null });
    expect(rowBytes(newest)).toBeLessThan(2_000);

    const bytesOfEdits = async (from: number, count: number) => {
      for (let i = from; i < from + count; i++) await edit(i);
      const rows = (await commitsOf(wf.id)).slice(-count);
      return rows.reduce((sum, r) => sum + rowBytes(r), 0) / count;
    };
    // Any run of checkpointEvery commits holds exactly one checkpoint, so these averages compare
    // like with like: the first hundred edits against the fifth.
    const early = await bytesOfEdits(1, HISTORY.checkpointEvery);
    await bytesOfEdits(101, 300);
    const late = await bytesOfEdits(401, HISTORY.checkpointEvery);
    expect(early).toBeLessThan(1_500);
    expect(late).toBeLessThan(early * 1.05);
    // The workflow row does not grow with its history (it used to carry the undo stack).
    expect(await workflowRow()).toBeLessThan(rowBefore + 16);

    // Every state is still there: the one after the first edit, rebuilt from a checkpoint and deltas.
    const list = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id, page_size: 1, page: 501 });
    const detail = await api.ok('GET', `/workflow-history/commits/${list.items[0].id}`);
    expect(detail.seq).toBe(first.workflow_version);
    expect(detail.state.steps).toHaveLength(200);
    expect(detail.state.steps.find((s: { id: string }) => s.id === last.id).param_inputs.condition).toBe('amount > 0');
  }, 60_000);

  // Over Jest’s 5 s at worst: a few hundred commits, each state rebuilt and compared (1–2.5 s on a loaded 2-core machine).
  it('rebuilds the exact state of every commit across checkpoints', async () => {
    const wf = await api.createWorkflow('Every state');
    const seen = new Map<number, unknown>();
    const note = async () => {
      const w = await api.getWorkflow(wf.id);
      seen.set(w.version, comparable(w));
    };
    await note();
    const a = await api.addStep(wf.id, 'import_csv', { name: 'A' });
    await note();
    for (let i = 0; i < HISTORY.checkpointEvery + 20; i++) {
      const kind = i % 6;
      if (kind === 0) await api.addStep(wf.id, 'filter', { name: `F${i}`, inputs: [a.id] });
      if (kind === 1) await api.ok('PUT', `/workflows/${wf.id}`, { name: `Every state ${i}`, tags: [`t${i % 4}`] });
      if (kind === 2) await api.ok('POST', `/workflows/${wf.id}/variables`, { name: `v${i}`, type: 'number', value: i });
      if (kind === 3) {
        const { variables } = await api.getWorkflow(wf.id);
        await api.ok('PUT', `/workflows/${wf.id}/variables/${variables[0].id}`, { value: i * 10, description: `d${i}` });
      }
      if (kind === 4) {
        const { steps } = await api.getWorkflow(wf.id);
        const victim = steps.find((s: Step) => s.name !== 'A');
        await api.ok('DELETE', `/workflows/${wf.id}/steps/batch?step_ids=${victim.id}`);
      }
      if (kind === 5) await undo(wf.id);
      await note();
    }
    const { items } = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id, page_size: 200 });
    expect(items.length).toBe(seen.size);
    for (const commit of items) {
      const detail = await api.ok('GET', `/workflow-history/commits/${commit.id}`);
      expect([commit.seq, comparable(detail.state)]).toEqual([commit.seq, seen.get(commit.seq)]);
    }
    const rows = await commitsOf(wf.id);
    expect(rows.filter((r) => r.checkpoint !== null).map((r) => r.seq)).toEqual([1, HISTORY.checkpointEvery + 1]);
  }, 30_000);

  // Over Jest’s 5 s at worst: the undo limit plus five edits, each undone and redone (1–2 s on a loaded 2-core machine).
  it('bounds undo: after limit + 5 edits it undoes exactly limit of them, and redo brings them all back', async () => {
    const wf = await api.createWorkflow('Bounded');
    const edits = HISTORY.undoLimit + 5;
    for (let i = 1; i <= edits; i++) await api.ok('PUT', `/workflows/${wf.id}`, { description: `d${i}` });
    const entries = await t.app.db.selectFrom('workflow_undo_entries').selectAll().where('workflow_id', '=', wf.id).execute();
    expect(entries).toHaveLength(HISTORY.undoLimit);

    for (let i = 0; i < HISTORY.undoLimit; i++) expect((await undo(wf.id)).status).toBe(200);
    const nothing = await undo(wf.id);
    expect([nothing.status, nothing.body.detail]).toEqual([409, 'There is nothing to undo.']);
    expect(await api.getWorkflow(wf.id)).toMatchObject({ description: 'd5', can_undo: false, can_redo: true });

    for (let i = 0; i < HISTORY.undoLimit; i++) expect((await redo(wf.id)).status).toBe(200);
    expect((await redo(wf.id)).status).toBe(409);
    expect(await api.getWorkflow(wf.id)).toMatchObject({ description: `d${edits}`, can_undo: true, can_redo: false });
  }, 30_000);

  it('makes a drag one commit: consecutive moves merge, and undo puts every step back where the drag began', async () => {
    const wf = await api.createWorkflow('Canvas');
    const a = await api.addStep(wf.id, 'import_csv', { name: 'A', position: { x: 0, y: 0 } });
    const b = await api.addStep(wf.id, 'filter', { name: 'B', position: { x: 0, y: 200 } });
    // A multi-select drag: the editor writes each moved step, every time the mouse pauses.
    await move(a.id, 10, 5);
    await move(b.id, 10, 205);
    await move(a.id, 40, 20);
    const lastMove = await move(b.id, 40, 220);

    const { items, total } = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id });
    expect(total).toBe(4);
    expect(items[0]).toMatchObject({ seq: lastMove.workflow_version, kind: 'edit', message: 'Moved 2 steps' });
    expect(items[0].changes).toEqual([
      { entity: 'step', id: a.id, op: 'update', fields: ['position'] },
      { entity: 'step', id: b.id, op: 'update', fields: ['position'] },
    ]);
    expect(lastMove.workflow_version).toBe(7); // every write still moves the version on (If-Match keeps working)

    const undone = await undo(wf.id);
    expect(undone.body.message).toBe('Undid: Moved 2 steps');
    expect(await positions(wf.id)).toEqual({ A: { x: 0, y: 0 }, B: { x: 0, y: 200 } });
    await redo(wf.id);
    expect(await positions(wf.id)).toEqual({ A: { x: 40, y: 20 }, B: { x: 40, y: 220 } });

    // Once something else is newest (here the redo), a move starts a commit of its own.
    await move(a.id, 80, 20);
    await undo(wf.id);
    expect(await positions(wf.id)).toEqual({ A: { x: 40, y: 20 }, B: { x: 40, y: 220 } });
  });

  it('does not merge a move into an older move, nor into another kind of edit', async () => {
    const wf = await api.createWorkflow('Canvas two');
    const a = await api.addStep(wf.id, 'import_csv', { name: 'A', position: { x: 0, y: 0 } });
    await move(a.id, 100, 0);
    // The last move was a while ago: the next drag is a change of its own.
    await t.app.db
      .updateTable('workflow_commits')
      .set({ created_at: new Date(Date.now() - HISTORY.moveMergeWindowMs - 1_000).toISOString() })
      .where('workflow_id', '=', wf.id)
      .where('seq', '=', 3)
      .execute();
    await move(a.id, 200, 0);
    await api.ok('PUT', `/workflow-steps/${a.id}`, { name: 'Renamed' });
    await move(a.id, 300, 0);
    const { items } = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id });
    expect(items.map((c: { seq: number; message: string }) => [c.seq, c.message])).toEqual([
      [6, 'Moved step Renamed'],
      [5, 'Changed step Renamed'],
      [4, 'Moved step A'],
      [3, 'Moved step A'],
      [2, 'Added step A'],
      [1, 'Created the workflow'],
    ]);
    await undo(wf.id);
    await undo(wf.id);
    await undo(wf.id);
    expect((await api.getWorkflow(wf.id)).steps[0]).toMatchObject({ name: 'A', position: { x: 100, y: 0 } });
  });

  it('never stores a secret value in the history, and bringing a state back keeps the current one', async () => {
    const wf = await api.createWorkflow('Secrets');
    const key = await api.ok('POST', `/workflows/${wf.id}/variables`, { name: 'api_key', type: 'secret', value: 'sk-first' });
    await api.ok('PUT', `/workflows/${wf.id}`, { description: 'before the new key' });
    const { items: early } = await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id });
    await api.ok('PUT', `/workflows/${wf.id}/variables/${key.id}`, { value: 'sk-second' });
    const other = await api.ok('POST', `/workflows/${wf.id}/variables`, { name: 'webhook', type: 'secret', value: 'wh-secret' });
    // Enough edits for a checkpoint to be written while both secrets have values.
    for (let i = 0; i < HISTORY.checkpointEvery; i++) await api.ok('PUT', `/workflows/${wf.id}`, { description: `edit ${i}` });
    await undo(wf.id);

    const sealed = (await t.app.db.selectFrom('workflow_variables').select('value').where('workflow_id', '=', wf.id).execute()).map((r) => r.value!);
    expect(sealed.map((v) => t.app.secrets.open(v)).sort()).toEqual(['sk-second', 'wh-secret']);
    const commits = await commitsOf(wf.id);
    expect(commits.some((c) => c.checkpoint?.includes('webhook'))).toBe(true);
    const stored = JSON.stringify([commits, await t.app.db.selectFrom('workflow_undo_entries').selectAll().where('workflow_id', '=', wf.id).execute()]);
    for (const text of sealed) expect(stored).not.toContain(text);
    expect(stored).not.toMatch(/v1:[\w-]{8,}:/); // no sealed text at all, old values included

    // The state after "set description" had the first key: restoring it keeps today's key.
    const restored = await api.call('POST', `/workflow-history/restore/${early[0].id}`);
    expect(restored.status).toBe(200);
    expect(restored.body).not.toHaveProperty('warnings');
    expect(restored.body.variables).toEqual([expect.objectContaining({ id: key.id, name: 'api_key', has_value: true, value: null })]);
    const now = await t.app.db.selectFrom('workflow_variables').select('value').where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(t.app.secrets.open(now.value!)).toBe('sk-second');

    // The webhook secret was deleted by that restore; undoing it brings it back without a value.
    const back = await zh.call('POST', '/workflow-history/undo', { workflow_id: wf.id });
    expect(back.body.warnings).toEqual(['密钥 webhook 已恢复，但没有值（历史记录从不保存密钥的值）。请重新设置它的值。']);
    expect(back.body.variables.find((v: { id: string }) => v.id === other.id)).toMatchObject({ has_value: false, value: null });
    const detail = await api.ok('GET', `/workflow-history/commits/${early[0].id}`);
    expect(detail.state.variables).toEqual([expect.objectContaining({ name: 'api_key', value: null, has_value: true })]);
  });
});

/** A workflow's content, as the API shows it, in an order that does not depend on how it was read. */
function comparable(w: { name: string; description: string; tags: string[]; steps: { id: string }[]; variables: { id: string }[] }) {
  const byId = (x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id);
  return { name: w.name, description: w.description, tags: w.tags, steps: [...w.steps].sort(byId), variables: [...w.variables].sort(byId) };
}
