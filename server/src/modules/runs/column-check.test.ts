import { client as filesClient } from '../../test/files-client';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { waitUntil } from '../../test/wait';
import { workflowClient } from '../../test/workflow-helpers';

/*
 * A run in which a step names a column its input does not have is refused before anything runs,
 * with "did you mean", where the input's columns are known: derived from a typed table's params, or
 * a CSV import's last output while its settings are the same.
 */
describe('refusing a run over a column the input lacks', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let wf: ReturnType<typeof workflowClient>;

  const api = (method: string, url: string, payload?: object) => t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: owner.auth, payload });
  const execute = (workflowId: string, stepId: string) => api('POST', `/workflow-execution/${workflowId}/steps/${stepId}/execute?mode=all`, {});
  const runsOf = async (workflowId: string) => (await api('GET', `/workflow-runs/?workflow_id=${workflowId}`)).json().total as number;
  const upload = async (name: string, text: string): Promise<string> =>
    (await filesClient(t.app, owner.auth).upload([{ name, data: text }])).json().items[0].id;
  const ended = async (runId: string) => {
    let run = { state: '' };
    await waitUntil('the run to end', async () =>
      ['succeeded', 'failed', 'cancelled'].includes((run = (await api('GET', `/workflow-runs/${runId}`)).json()).state),
    );
    return run;
  };

  beforeAll(async () => {
    t = await createTestApp({ IN_PROCESS_WORKER: 'true' });
    owner = await signedInUser(t.app);
    wf = workflowClient(t.app, owner.auth);
  });
  afterAll(() => t.close());

  it("says which step and what it likely meant, and starts nothing, when a typed table's columns tell", async () => {
    const workflowId = (await wf.createWorkflow('Typed')).id as string;
    const table = await wf.addStep(workflowId, 'table_input', {
      param_inputs: { columns: [{ name: 'state', type: 'text' }], rows: [['CA'], ['NY']] },
    });
    const keep = await wf.addStep(workflowId, 'filter', { name: 'Keep CA', inputs: [table.id], param_inputs: { condition: "stat = 'CA'" } });
    const res = await execute(workflowId, keep.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      { msg: 'Column “stat” does not exist: did you mean “state”? The input has state.', loc: ['path', 'stepId', 'condition'], label: 'Keep CA' },
    ]);
    expect(await runsOf(workflowId)).toBe(0);
  });

  it("uses a CSV import's last columns only while its settings are the ones that made them", async () => {
    const workflowId = (await wf.createWorkflow('CSV')).id as string;
    const first = await upload('a.csv', 'state,amount\nCA,1\nNY,2\n');
    const load = await wf.addStep(workflowId, 'import_csv', { param_inputs: { file: first } });
    const ran = await execute(workflowId, load.id);
    expect((await ended(ran.json().id)).state).toBe('succeeded');
    const keep = await wf.addStep(workflowId, 'filter', { inputs: [load.id], param_inputs: { condition: "stat = 'CA'" } });
    expect((await execute(workflowId, keep.id)).statusCode).toBe(422);
    // Another file: its columns are not known until it is read, so the run starts (and the file has `stat`).
    const second = await upload('b.csv', 'stat,amount\nCA,1\n');
    await api('PATCH', `/workflow-steps/${load.id}/param-inputs/partial`, { param_inputs: { file: second } });
    const started = await execute(workflowId, keep.id);
    expect(started.statusCode).toBe(202);
    expect((await ended(started.json().id)).state).toBe('succeeded');
  });
});
