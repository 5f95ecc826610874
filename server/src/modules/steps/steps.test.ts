import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';

describe('steps', () => {
  let t: TestApp;
  let api: ReturnType<typeof workflowClient>;
  let other: ReturnType<typeof workflowClient>;

  beforeAll(async () => {
    t = await createTestApp();
    api = workflowClient(t.app, (await signedInUser(t.app)).auth);
    other = workflowClient(t.app, (await signedInUser(t.app)).auth);
  });
  afterAll(() => t.close());

  it('adds a step with its type defaults, a unique name and the new workflow version', async () => {
    const wf = await api.createWorkflow();
    const first = await api.addStep(wf.id, 'filter');
    const second = await api.addStep(wf.id, 'filter', { inputs: [first.id] });
    expect(first).toMatchObject({ workflow_id: wf.id, step_type: 'filter', name: 'Filter rows', inputs: [], workflow_version: 2 });
    expect(second).toMatchObject({ name: 'Filter rows 2', inputs: [first.id], workflow_version: 3 });
    const listed = await api.ok('GET', `/workflow-steps/?workflow_id=${wf.id}`);
    expect(listed.map((s: { id: string }) => s.id)).toEqual([first.id, second.id]);
  });

  it("names a new step after its type in the caller's language", async () => {
    const user = await signedInUser(t.app);
    const chinese = workflowClient(t.app, user.auth);
    const wf = await chinese.createWorkflow();
    const headers = { ...user.auth, 'accept-language': 'zh-CN' };
    const first = await t.app.inject({ method: 'POST', url: '/api/v1/workflow-steps', headers, payload: { workflow_id: wf.id, step_type: 'sort' } });
    expect(first.json()).toMatchObject({ name: '排序' });
    const second = await t.app.inject({ method: 'POST', url: `/api/v1/workflow-steps/from-template?workflow_id=${wf.id}&step_info_id=sort`, headers });
    expect(second.json()).toMatchObject({ name: '排序 2' });
    const english = await t.app.inject({
      method: 'POST',
      url: '/api/v1/workflow-steps',
      headers: user.auth,
      payload: { workflow_id: wf.id, step_type: 'sort' },
    });
    expect(english.json()).toMatchObject({ name: 'Sort rows' });
  });

  it('refuses an unknown step type and a badly typed param, pointing at them', async () => {
    const wf = await api.createWorkflow();
    const unknown = await api.call('POST', '/workflow-steps', { workflow_id: wf.id, step_type: 'teleport' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ msg: 'There is no step type "teleport".', loc: ['body', 'step_type'] }]);
    const bad = await api.call('POST', '/workflow-steps', { workflow_id: wf.id, step_type: 'limit', param_inputs: { count: 'many' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['body', 'param_inputs', 'count']);
  });

  it('creates from a template after a step, connected in, via from-template', async () => {
    const wf = await api.createWorkflow();
    const source = await api.addStep(wf.id, 'import_csv');
    const res = await api.call('POST', `/workflow-steps/from-template?workflow_id=${wf.id}&step_info_id=deduplicate&after_step_id=${source.id}`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ step_type: 'deduplicate', inputs: [source.id], position: { x: source.position.x, y: source.position.y + 120 } });
  });

  it('adds after a step in the middle of a chain between it and its readers, beside (not on top of) them', async () => {
    const wf = await api.createWorkflow();
    const a = await api.addStep(wf.id, 'import_csv');
    const b = await api.addStep(wf.id, 'filter', { inputs: [a.id], position: { x: a.position.x, y: a.position.y + 120 } });
    const res = await api.call('POST', `/workflow-steps/from-template?workflow_id=${wf.id}&step_info_id=deduplicate&after_step_id=${a.id}`);
    expect(res.status).toBe(201);
    expect(res.body.inputs).toEqual([a.id]);
    expect(res.body.position).not.toEqual(b.position);
    const steps = (await api.getWorkflow(wf.id)).steps as { id: string; inputs: string[] }[];
    expect(steps.find((s) => s.id === b.id)!.inputs).toEqual([res.body.id]);
  });

  it('replaces params (complete, validated) and merges partial ones (null removes)', async () => {
    const wf = await api.createWorkflow();
    const step = await api.addStep(wf.id, 'filter');
    const incomplete = await api.call('PATCH', `/workflow-steps/${step.id}/param-inputs`, { param_inputs: {} });
    expect(incomplete.status).toBe(422);
    expect(incomplete.body.errors).toEqual([expect.objectContaining({ loc: ['body', 'param_inputs', 'condition'] })]);

    const replaced = await api.ok('PATCH', `/workflow-steps/${step.id}/param-inputs`, { param_inputs: { condition: 'amount > {{var.threshold}}' } });
    expect(replaced.param_inputs).toEqual({ condition: 'amount > {{var.threshold}}' });

    const unknown = await api.call('PATCH', `/workflow-steps/${step.id}/param-inputs/partial`, { param_inputs: { colour: 'red' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].loc).toEqual(['body', 'param_inputs', 'colour']);

    const limit = await api.addStep(wf.id, 'limit');
    const merged = await api.ok('PATCH', `/workflow-steps/${limit.id}/param-inputs/partial`, { param_inputs: { count: '{{var.max_rows}}' } });
    expect(merged.param_inputs.count).toBe('{{var.max_rows}}');
  });

  it("refuses a filter condition that is not a valid expression, saying where, in the caller's language", async () => {
    const wf = await api.createWorkflow();
    const step = await api.addStep(wf.id, 'filter', { param_inputs: { condition: "country = 'NL'" } });
    const broken = { param_inputs: { condition: "country = = 'NL' ((" } };
    for (const [headers, msg, label] of [
      [{}, 'Unexpected “=” at position 11', 'Condition'],
      [{ 'accept-language': 'zh-CN,zh;q=0.9' }, '第 11 个字符处出现意外的 “=”', '条件'],
    ] as const) {
      for (const url of [`/workflow-steps/${step.id}/param-inputs`, `/workflow-steps/${step.id}/param-inputs/partial`]) {
        const res = await api.call('PATCH', url, broken, headers);
        expect([url, res.status, res.body]).toEqual([url, 422, { errors: [{ msg, loc: ['body', 'param_inputs', 'condition'], label }] }]);
      }
    }
    const injected = await api.call('PATCH', `/workflow-steps/${step.id}/param-inputs/partial`, { param_inputs: { condition: '1); DROP TABLE x; --' } });
    expect(injected.body.errors).toEqual([{ msg: 'Unexpected “)” at position 2', loc: ['body', 'param_inputs', 'condition'], label: 'Condition' }]);
    const formula = await api.call('POST', '/workflow-steps', {
      workflow_id: wf.id,
      step_type: 'add_column',
      param_inputs: { new_column: 'x', expression: 'foo(price)' },
    });
    expect(formula.body.errors).toEqual([{ msg: 'Unknown function “foo” at position 1', loc: ['body', 'param_inputs', 'expression'], label: 'Formula' }]);
    // Nothing was saved: the step keeps its last good condition.
    expect((await api.ok('GET', `/workflow-steps/${step.id}`)).param_inputs.condition).toBe("country = 'NL'");
  });

  it('updates name, inputs and position with PUT, keeping the graph a DAG', async () => {
    const wf = await api.createWorkflow();
    const a = await api.addStep(wf.id, 'import_csv');
    const b = await api.addStep(wf.id, 'filter', { inputs: [a.id] });
    const c = await api.addStep(wf.id, 'sort', { inputs: [b.id] });
    const moved = await api.ok('PUT', `/workflow-steps/${c.id}`, { name: 'Sorted', position: { x: 10, y: 20 } });
    expect(moved).toMatchObject({ name: 'Sorted', position: { x: 10, y: 20 } });

    const cycle = await api.call('PUT', `/workflow-steps/${b.id}`, { inputs: [c.id] });
    expect(cycle.status).toBe(422);
    expect(cycle.body.errors[0].msg).toBe('These steps would read from each other in a loop: Filter rows → Sorted → Filter rows.');
    const dangling = await api.call('PUT', `/workflow-steps/${b.id}`, { inputs: ['no-such-step'] });
    expect(dangling.status).toBe(422);
    const tooMany = await api.call('PUT', `/workflow-steps/${b.id}`, { inputs: [a.id, c.id] });
    expect(tooMany.status).toBe(422);
    const source = await api.call('PUT', `/workflow-steps/${a.id}`, { inputs: [b.id] });
    expect(source.status).toBe(422);
    expect((await api.getWorkflow(wf.id)).steps.find((s: { id: string }) => s.id === b.id).inputs).toEqual([a.id]);
  });

  it('answers 404 for a missing step and for another user’s step, leaving it unchanged', async () => {
    const wf = await api.createWorkflow();
    const step = await api.addStep(wf.id, 'filter');
    for (const [method, url, body] of [
      ['GET', `/workflow-steps/${step.id}`],
      ['PUT', `/workflow-steps/${step.id}`, { name: 'Mine now' }],
      ['PATCH', `/workflow-steps/${step.id}/param-inputs/partial`, { param_inputs: { condition: 'x' } }],
      ['GET', `/workflow-steps/${step.id}/input-dataset`],
      ['GET', `/workflow-steps/${step.id}/output-dataset`],
      ['POST', `/workflow-steps/${step.id}/clone`],
    ] as const) {
      const res = await other.call(method, url, body as object | undefined);
      expect([method, url, res.status]).toEqual([method, url, 404]);
    }
    expect((await api.ok('GET', `/workflow-steps/${step.id}`)).name).toBe('Filter rows');
    expect((await api.call('GET', '/workflow-steps/nope')).status).toBe(404);
  });

  it('says there is no input dataset before anything ran', async () => {
    const wf = await api.createWorkflow();
    const step = await api.addStep(wf.id, 'filter');
    const res = await api.call('GET', `/workflow-steps/${step.id}/input-dataset`);
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/run the steps before this one/);
  });

  it('says there is no output before the step ran', async () => {
    const wf = await api.createWorkflow();
    const step = await api.addStep(wf.id, 'filter');
    const res = await api.call('GET', `/workflow-steps/${step.id}/output-dataset`);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('There is no output yet: run this step or preview it first.');
    expect((await api.call('GET', `/workflow-steps/${step.id}/output-dataset?include_lineage=maybe`)).status).toBe(422);
  });
});

describe('file params', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function upload(auth: { authorization: string }, name: string): Promise<string> {
    const boundary = 'stepwise-test-boundary';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\nid,city\n1,Paris\n\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files/',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json().items[0].id;
  }

  it("accepts one of my files and refuses someone else's, like a missing one", async () => {
    const me = await signedInUser(t.app);
    const them = await signedInUser(t.app);
    const api = workflowClient(t.app, me.auth);
    const mine = await upload(me.auth, 'mine.csv');
    const theirs = await upload(them.auth, 'theirs.csv');
    const wf = await api.createWorkflow();

    const ok = await api.call('POST', '/workflow-steps', { workflow_id: wf.id, step_type: 'import_csv', param_inputs: { file: mine } });
    expect(ok.status).toBe(201);
    for (const file of [theirs, 'no-such-file']) {
      const refused = await api.call('PATCH', `/workflow-steps/${ok.body.id}/param-inputs/partial`, { param_inputs: { file } });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([{ msg: 'There is no such file among your files.', loc: ['body', 'param_inputs', 'file'], label: 'CSV file' }]);
    }
    const created = await api.call('POST', '/workflow-steps', { workflow_id: wf.id, step_type: 'import_csv', param_inputs: { file: theirs } });
    expect(created.status).toBe(422);
    expect((await api.ok('GET', `/workflow-steps/${ok.body.id}`)).param_inputs.file).toBe(mine);
  });

  async function folder(auth: { authorization: string }, name: string): Promise<string> {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/files/folders', headers: auth, payload: { name } });
    expect(res.statusCode).toBe(201);
    return res.json().id;
  }

  /** The 422 a partial param change answers, in English and in Chinese. */
  async function refusal(auth: { authorization: string }, stepId: string, param_inputs: Record<string, unknown>) {
    const say = async (language: string) => {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/workflow-steps/${stepId}/param-inputs/partial`,
        headers: { ...auth, 'accept-language': language },
        payload: { param_inputs },
      });
      expect(res.statusCode).toBe(422);
      return res.json().errors;
    };
    return { en: await say('en'), zh: await say('zh-CN') };
  }

  it("takes one of my folders for a folder param, and refuses a file, someone else's folder or a missing one", async () => {
    const me = await signedInUser(t.app);
    const them = await signedInUser(t.app);
    const api = workflowClient(t.app, me.auth);
    const reports = await folder(me.auth, 'Reports');
    const theirs = await folder(them.auth, 'Theirs');
    const csv = await upload(me.auth, 'customers.csv');
    const wf = await api.createWorkflow();

    const step = await api.addStep(wf.id, 'import_folder', { param_inputs: { folder: reports } });
    expect(step.param_inputs.folder).toBe(reports);
    expect(await refusal(me.auth, step.id, { folder: csv })).toEqual({
      en: [{ msg: 'This is a file: choose a folder.', loc: ['body', 'param_inputs', 'folder'], label: 'Folder' }],
      zh: [{ msg: '这是一个文件：请选择一个文件夹。', loc: ['body', 'param_inputs', 'folder'], label: '文件夹' }],
    });
    for (const id of [theirs, 'no-such-folder']) {
      expect(await refusal(me.auth, step.id, { folder: id })).toEqual({
        en: [{ msg: 'There is no such folder among your files.', loc: ['body', 'param_inputs', 'folder'], label: 'Folder' }],
        zh: [{ msg: '你的文件中没有这个文件夹。', loc: ['body', 'param_inputs', 'folder'], label: '文件夹' }],
      });
    }
    const created = await api.call('POST', '/workflow-steps', { workflow_id: wf.id, step_type: 'import_folder', param_inputs: { folder: theirs } });
    expect([created.status, created.body.errors?.[0]?.loc]).toEqual([422, ['body', 'param_inputs', 'folder']]);
    // A whole replacement is checked the same way; a variable's value is only known at run time.
    const replaced = await api.call('PATCH', `/workflow-steps/${step.id}/param-inputs`, { param_inputs: { folder: csv } });
    expect([replaced.status, replaced.body.errors?.[0]?.msg]).toEqual([422, 'This is a file: choose a folder.']);
    expect((await api.call('PATCH', `/workflow-steps/${step.id}/param-inputs/partial`, { param_inputs: { folder: '{{var.inbox}}' } })).status).toBe(200);
  });

  it('refuses a folder, or a file the step cannot read, for a file param', async () => {
    const me = await signedInUser(t.app);
    const api = workflowClient(t.app, me.auth);
    const reports = await folder(me.auth, 'Reports');
    const notes = await upload(me.auth, 'notes.txt');
    const shouting = await upload(me.auth, 'SALES.CSV');
    const wf = await api.createWorkflow();
    const step = await api.addStep(wf.id, 'import_csv');

    expect(await refusal(me.auth, step.id, { file: reports })).toEqual({
      en: [{ msg: 'This is a folder: choose a file.', loc: ['body', 'param_inputs', 'file'], label: 'CSV file' }],
      zh: [{ msg: '这是一个文件夹：请选择一个文件。', loc: ['body', 'param_inputs', 'file'], label: 'CSV 文件' }],
    });
    expect(await refusal(me.auth, step.id, { file: notes })).toEqual({
      en: [{ msg: 'This step reads only .csv files: choose one of those.', loc: ['body', 'param_inputs', 'file'], label: 'CSV file' }],
      zh: [{ msg: '此步骤只能读取 .csv 文件：请选择这类文件。', loc: ['body', 'param_inputs', 'file'], label: 'CSV 文件' }],
    });
    expect((await api.call('PATCH', `/workflow-steps/${step.id}/param-inputs/partial`, { param_inputs: { file: shouting } })).status).toBe(200);
  });
});
