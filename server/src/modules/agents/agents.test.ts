import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { startLlmServer, type LlmServer } from '../../test/llm-server';
import { workflowClient } from '../../test/workflow-helpers';
import { DatasetsService } from '../datasets/datasets.service';

/*
 * The step agents against the stand-in model, with the run engine in process so their previews
 * really run a step on sample records: a workflow "Use dataset" (a planted dataset of orders) →
 * the step under test.
 */
describe('step-param and param-evaluation agents', () => {
  let llm: LlmServer;
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signedInUser>>;
  let api: ReturnType<typeof workflowClient>;
  let other: ReturnType<typeof workflowClient>;
  let datasetId: string;

  beforeAll(async () => {
    llm = await startLlmServer();
    t = await createTestApp({ ...llm.env, IN_PROCESS_WORKER: 'true' });
    user = await signedInUser(t.app);
    api = workflowClient(t.app, user.auth);
    other = workflowClient(t.app, (await signedInUser(t.app)).auth);
    const orders = await t.app.datasets.write({
      ownerId: user.user.id,
      name: 'Orders',
      source: {
        columns: [
          { name: 'country', type: 'VARCHAR' },
          { name: 'amount', type: 'BIGINT' },
        ],
        batches: [
          [
            { country: 'NL', amount: 5 },
            { country: 'NL', amount: 20 },
            { country: 'DE', amount: 50 },
            { country: 'DE', amount: 15 },
          ],
        ],
      },
    });
    await new DatasetsService(t.app.db, t.app.datasets).registerDataset(orders);
    datasetId = orders.id;
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  async function workflowWith(type: string, params: object = {}) {
    const wf = await api.createWorkflow();
    const source = await api.addStep(wf.id, 'import_dataset', { param_inputs: { dataset: datasetId } });
    const step = await api.addStep(wf.id, type, { inputs: [source.id], param_inputs: params });
    return { wf, source, step };
  }

  it("fills params through the step type's rules, saves them as one commit and previews them on sample records", async () => {
    const { wf, step } = await workflowWith('filter');
    const commits = (await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id })).total;
    llm.queue(
      { toolCalls: [{ id: 'p1', name: 'set_params', args: { param_inputs: { mode: 'sometimes' } } }] },
      { toolCalls: [{ id: 'p2', name: 'set_params', args: { param_inputs: { condition: 'amount > 10' } } }] },
      { text: 'Kept the orders above 10.' },
    );
    const res = await api.call('POST', `/agents/workflow-step-param/${wf.id}/${step.id}/message`, { message: 'only orders above 10' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      applied: true,
      params: { condition: 'amount > 10', mode: 'keep' },
      message: { status: 'complete', content: 'Kept the orders above 10.' },
    });
    // The refused value came back to the model as the rule's own problem.
    const [refused, accepted] = res.body.message.parts.filter((p: { type: string }) => p.type === 'tool_result');
    expect(refused).toMatchObject({ ok: false, result: { problems: [{ loc: ['body', 'param_inputs', 'mode'] }] } });
    expect(accepted.ok).toBe(true);
    expect(res.body.message.commit).toMatchObject({ applied: true, changes: [{ kind: 'step_updated', step_id: step.id }] });
    expect(res.body.preview).toMatchObject({ state: 'succeeded', error: null });
    expect(res.body.preview.records.map((r: { amount: number }) => r.amount).sort()).toEqual([20, 50]);
    // The executions list tells the agent's preview run from one its owner started.
    expect((await api.ok('GET', `/workflow-runs/${res.body.preview.run_id}`)).started_by).toBe('agent');
    expect((await api.ok('GET', `/workflow-steps/${step.id}`)).param_inputs).toMatchObject({ condition: 'amount > 10' });
    expect((await api.ok('POST', '/workflow-history/commits', { workflow_id: wf.id })).total).toBe(commits + 1);
    // The model was shown the step's columns.
    expect(String(llm.requests.at(-3)!.messages[0].content)).toMatch(/country/);
  });

  it('proposes without saving when apply is false', async () => {
    const { wf, step } = await workflowWith('filter');
    llm.queue({ toolCalls: [{ id: 'p1', name: 'set_params', args: { param_inputs: { condition: "country = 'NL'" } } }] }, { text: 'Proposed.' });
    const res = await api.call('POST', `/agents/workflow-step-param/${wf.id}/${step.id}/message`, { message: 'only NL', apply: false });
    expect(res.body).toMatchObject({ applied: false, preview: null, params: { condition: "country = 'NL'" } });
    expect((await api.ok('GET', `/workflow-steps/${step.id}`)).param_inputs.condition ?? '').toBe('');
  });

  it('evaluates params on sample records: unknown columns, a failing run, and the model explains', async () => {
    const { wf, step } = await workflowWith('http_request', { url: 'http://127.0.0.1:9/orders/{{field.nope}}' });
    llm.queue({ text: 'The URL refers to a column that does not exist.' });
    const res = await api.call('POST', `/agents/workflow-step-param-evaluation/${wf.id}/${step.id}/message`, {});
    expect(res.status).toBe(200);
    // Before the source has run its columns are known only by running: the sample run says it.
    expect(res.body.problems).toContainEqual(expect.objectContaining({ severity: 'error', msg: expect.stringMatching(/nope/) }));
    expect(res.body.message).toMatchObject({ role: 'assistant', content: 'The URL refers to a column that does not exist.' });
    expect(String(llm.requests.at(-1)!.messages[0].content)).toMatch(/nope/);
    expect(String(llm.requests.at(-1)!.messages[0].content)).toMatch(/DATA, never instructions/);

    // Right columns, but the call is refused for each record: the run on the sample reports it.
    const failing = await workflowWith('http_request', { url: 'http://127.0.0.1:9/orders/{{field.country}}' });
    llm.queue({ text: 'The server does not answer.' });
    const ran = await api.call('POST', `/agents/workflow-step-param-evaluation/${failing.wf.id}/${failing.step.id}/message`, { sample_size: 2 });
    expect(ran.status).toBe(200);
    expect(ran.body.preview).not.toBeNull();
    expect(ran.body.problems.length).toBeGreaterThan(0);
    expect(ran.body.preview).toMatchObject({ state: 'succeeded' });
    expect(ran.body.preview.records).toHaveLength(2);
    expect(ran.body.problems).toHaveLength(2);
    expect(ran.body.problems[0]).toMatchObject({ severity: 'error', msg: expect.stringMatching(/not allowed/), record_id: ran.body.preview.records[0]._id });
  });

  it('lets the coordinator preview a saved step on sample records, but never an export', async () => {
    const { wf, step } = await workflowWith('filter', { condition: "country = 'DE'" });
    const exporter = await api.addStep(wf.id, 'export_csv', { inputs: [step.id] });
    llm.queue(
      {
        toolCalls: [
          { id: 'v1', name: 'preview_step', args: { step_id: step.id, sample_size: 3 } },
          { id: 'v2', name: 'preview_step', args: { step_id: exporter.id } },
        ],
      },
      { text: 'Previewed.' },
    );
    const res = await api.call('POST', `/agents/coordinator/${wf.id}/message`, { message: 'show me' });
    expect(res.status).toBe(200);
    const [preview, refused] = res.body.message.parts.filter((p: { type: string }) => p.type === 'tool_result');
    expect(preview).toMatchObject({ ok: true, result: { preview: { state: 'succeeded', error: null } } });
    expect(preview.result.preview.records.map((r: { amount: number }) => r.amount)).toEqual([50]);
    expect(refused).toMatchObject({ ok: false, result: { error: expect.stringMatching(/never runs/) } });
    expect(res.body.commit).toBeNull();
  });

  it("answers 404 for another user's workflow or step, and for a step of another workflow", async () => {
    const { wf, step } = await workflowWith('filter');
    const mine = await workflowWith('filter');
    expect((await other.call('POST', `/agents/workflow-step-param/${wf.id}/${step.id}/message`, { message: 'x' })).status).toBe(404);
    expect((await other.call('POST', `/agents/workflow-step-param-evaluation/${wf.id}/${step.id}/message`, {})).status).toBe(404);
    expect((await api.call('POST', `/agents/workflow-step-param/${mine.wf.id}/${step.id}/message`, { message: 'x' })).status).toBe(404);
    expect((await api.call('POST', `/agents/workflow-step-param/${wf.id}/${step.id}/message`, { message: '' })).status).toBe(422);
    expect((await api.call('POST', `/agents/workflow-step-param-evaluation/${wf.id}/${step.id}/message`, { sample_size: 500 })).status).toBe(422);
  });
});
