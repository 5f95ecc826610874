import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';
import { DatasetsService } from '../datasets/datasets.service';

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

describe("clone: another author's files and datasets", () => {
  let t: TestApp;
  let alice: ReturnType<typeof workflowClient>;
  let bob: ReturnType<typeof workflowClient>;
  let aliceAuth: { authorization: string };
  let aliceId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await signedInUser(t.app, { name: 'Alice' });
    aliceAuth = signedIn.auth;
    aliceId = signedIn.user.id as string;
    alice = workflowClient(t.app, aliceAuth);
    bob = workflowClient(t.app, (await signedInUser(t.app, { name: 'Bob' })).auth);
  });
  afterAll(() => t.close());

  async function aliceUploads(name: string): Promise<string> {
    const payload = `--b\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\nid,amount\n1,10\n\r\n--b--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files/',
      headers: { ...aliceAuth, 'content-type': 'multipart/form-data; boundary=b' },
      payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json().items[0].id;
  }

  /** A dataset of Alice's, as a run of hers would have left it. */
  async function alicesDataset(): Promise<string> {
    const meta = await t.app.datasets.write({
      ownerId: aliceId,
      name: 'Last run',
      source: { columns: [{ name: 'amount', type: 'BIGINT' }], batches: [[{ amount: 10 }]] },
    });
    await new DatasetsService(t.app.db, t.app.datasets).registerDataset(meta);
    return meta.id;
  }

  /** Alice's published workflow naming her file, her dataset, and her file again through a variable. */
  async function alicesPublishedWorkflow() {
    const fileId = await aliceUploads('sales.csv');
    const datasetId = await alicesDataset();
    const wf = await alice.createWorkflow('Sales report');
    await alice.ok('POST', `/workflows/${wf.id}/variables`, { name: 'source', type: 'string', value: fileId });
    const load = await alice.addStep(wf.id, 'import_csv', { name: 'Load sales', param_inputs: { file: fileId, delimiter: 'semicolon' } });
    await alice.addStep(wf.id, 'filter', { name: 'Big ones', inputs: [load.id], param_inputs: { condition: 'amount > 5' } });
    await alice.addStep(wf.id, 'import_dataset', { name: 'Last run', param_inputs: { dataset: datasetId } });
    await alice.addStep(wf.id, 'import_csv', { name: 'Load chosen', param_inputs: { file: '{{var.source}}' } });
    await alice.ok('POST', `/workflows/${wf.id}/publish`);
    return { wf, fileId, datasetId };
  }
  const stepNamed = (workflow: { steps: { name: string; param_inputs: Record<string, unknown> }[] }, name: string) =>
    workflow.steps.find((s) => s.name === name)!;

  it("drops the params naming the author's things from someone else's copy, and says which steps need settings", async () => {
    const { wf, fileId, datasetId } = await alicesPublishedWorkflow();
    const res = await bob.call('POST', `/workflows/${wf.id}/clone`);
    expect(res.status).toBe(201);
    const copy = res.body;
    expect(stepNamed(copy, 'Load sales').param_inputs).toEqual({ delimiter: 'semicolon', has_header: true, encoding: 'utf-8' });
    expect(stepNamed(copy, 'Last run').param_inputs).not.toHaveProperty('dataset');
    expect(stepNamed(copy, 'Big ones').param_inputs).toEqual({ condition: 'amount > 5', mode: 'keep' });
    // The reference stays, but the variable no longer holds Alice's file id.
    expect(stepNamed(copy, 'Load chosen').param_inputs).toMatchObject({ file: '{{var.source}}' });
    expect(copy.variables).toEqual([expect.objectContaining({ name: 'source', value: null })]);
    expect(res.body.warnings).toEqual([
      '"Load sales" needs settings again: CSV file. The original used files or datasets of its author, which stay theirs.',
      '"Last run" needs settings again: Dataset. The original used files or datasets of its author, which stay theirs.',
      'Variable "source" was emptied: it named a file or dataset of the original author. Set it to one of yours.',
    ]);
    // What Bob's account now holds, not only what the answer said.
    const stored = await bob.getWorkflow(copy.id);
    expect(stored.steps).toHaveLength(4);
    expect(JSON.stringify(stored)).not.toContain(fileId);
    expect(JSON.stringify(stored)).not.toContain(datasetId);
    const history = await bob.ok('POST', '/workflow-history/commits', { workflow_id: copy.id });
    expect(history.items).toHaveLength(1);
    expect(JSON.stringify(history)).not.toContain(fileId);
  });

  it("refuses a step pointed at someone else's dataset, as if it did not exist", async () => {
    const datasetId = await alicesDataset();
    const wf = await bob.createWorkflow('Peek');
    const res = await bob.call('POST', '/workflow-steps', { workflow_id: wf.id, step_type: 'import_dataset', param_inputs: { dataset: datasetId } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ msg: 'There is no such dataset among your datasets.', loc: ['body', 'param_inputs', 'dataset'], label: 'Dataset' }]);
  });

  it('names the params in the reader’s language', async () => {
    const { wf } = await alicesPublishedWorkflow();
    const res = await bob.call('POST', `/workflows/${wf.id}/clone`, undefined, { 'accept-language': 'zh-CN' });
    expect(res.body.warnings[0]).toBe('“Load sales”需要重新设置：CSV 文件。原工作流使用的是其作者的文件或数据集，这些仍归作者所有。');
  });

  it('keeps everything when the author copies their own workflow, and when a step is copied within their workflows', async () => {
    const { wf, fileId, datasetId } = await alicesPublishedWorkflow();
    const res = await alice.call('POST', `/workflows/${wf.id}/clone`);
    expect(res.status).toBe(201);
    expect(res.body.warnings).toBeUndefined();
    expect(stepNamed(res.body, 'Load sales').param_inputs).toMatchObject({ file: fileId });
    expect(stepNamed(res.body, 'Last run').param_inputs).toMatchObject({ dataset: datasetId });
    expect(res.body.variables[0].value).toBe(fileId);

    const load = stepNamed(await alice.getWorkflow(wf.id), 'Load sales') as unknown as { id: string };
    const inPlace = await alice.ok('POST', `/workflow-steps/${load.id}/clone`);
    expect(inPlace.param_inputs).toMatchObject({ file: fileId });
    const other = await alice.createWorkflow('Elsewhere');
    const moved = await alice.ok('POST', `/workflow-steps/${load.id}/clone?workflow_id=${other.id}`);
    expect(moved.param_inputs).toMatchObject({ file: fileId });
  });

  it("drops the author's folder from a folder param", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/files/folders', headers: aliceAuth, payload: { name: 'Invoices' } });
    const folderId = res.json().id;
    const wf = await alice.createWorkflow('Read invoices');
    await alice.addStep(wf.id, 'import_folder', { name: 'Invoices in', param_inputs: { folder: folderId, pattern: '*.pdf' } });
    await alice.ok('POST', `/workflows/${wf.id}/publish`);

    const copy = await bob.call('POST', `/workflows/${wf.id}/clone`);
    expect(copy.status).toBe(201);
    expect(stepNamed(copy.body, 'Invoices in').param_inputs).toEqual({ read: 'files', pattern: '*.pdf', recursive: true, include_content: false });
    expect(copy.body.warnings).toEqual(['"Invoices in" needs settings again: Folder. The original used files or datasets of its author, which stay theirs.']);
    // The author's own copy keeps the folder.
    expect(stepNamed((await alice.call('POST', `/workflows/${wf.id}/clone`)).body, 'Invoices in').param_inputs).toMatchObject({ folder: folderId });
  });
});
