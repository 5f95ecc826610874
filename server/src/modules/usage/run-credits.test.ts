import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { waitUntil } from '../../test/wait';
import { workflowClient } from '../../test/workflow-helpers';
import { toMicro } from './ledger';

/*
 * A run that uses up the credits while it runs (in-process queue, real DuckDB, the real
 * database): it pauses at a batch boundary with its finished batch kept, refuses a manual resume
 * while the balance is spent (402 and the modal), resumes by itself when credits arrive, and ends
 * with every record exactly once and every batch charged exactly once.
 */
describe('a run that runs out of credits', () => {
  let t: TestApp;
  beforeAll(async () => {
    // 500 records per code batch at 0.01 credits a record: 5 credits a batch.
    t = await createTestApp({ IN_PROCESS_WORKER: 'true', STEP_PRICES: '{"code": 0.01}' });
  });
  afterAll(async () => t?.close());

  it('pauses at a batch boundary, then resumes after a top-up and finishes with every record once', async () => {
    const owner = await signedInUser(t.app);
    const api = (method: string, url: string, payload?: object) =>
      t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: owner.auth, payload });
    const wf = workflowClient(t.app, owner.auth);
    const runOf = async (id: string) => (await api('GET', `/workflow-runs/${id}`)).json();
    const until = async (id: string, states: string[]) => {
      for (let i = 0; i < 1200; i++) {
        const run = await runOf(id);
        if (states.includes(run.state)) return run;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`the run never reached ${states.join(' or ')}`);
    };

    const RECORDS = 1234;
    const lines = Array.from({ length: RECORDS }, (_, i) => `${i}`).join('\n');
    const upload = `--b\r\nContent-Disposition: form-data; name="files"; filename="numbers.csv"\r\nContent-Type: text/csv\r\n\r\nn\n${lines}\n\r\n--b--\r\n`;
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files/',
      headers: { ...owner.auth, 'content-type': 'multipart/form-data; boundary=b' },
      payload: upload,
    });
    const workflowId = (await wf.createWorkflow('Numbers')).id as string;
    const load = await wf.addStep(workflowId, 'import_csv', { param_inputs: { file: uploaded.json().items[0].id } });
    // A filter's output is only known by running it, so the code step's cost is not known before the
    // run (the CSV's own records are: uploads are counted), and the run may start on 4 credits.
    const keep = await wf.addStep(workflowId, 'filter', { inputs: [load.id], param_inputs: { condition: 'n >= 0' } });
    const code = await wf.addStep(workflowId, 'code', { inputs: [keep.id], param_inputs: { code: 'return { n: record.n, double: record.n * 2 };' } });

    // 4 credits left: the first batch (5 credits) takes the balance below 0.
    await t.app.credits.append([{ userId: owner.user.id, kind: 'adjustment', creditsMicro: -toMicro(96), idempotencyKey: `test:spend:${owner.user.id}` }]);
    expect((await api('GET', `/workflows/${workflowId}/cost-estimate?step_id=${code.id}`)).json()).toMatchObject({ credits: 0, unknown: true, enough: true });
    const started = await api('POST', `/workflow-execution/${workflowId}/steps/${code.id}/execute?mode=all`, {});
    expect(started.statusCode).toBe(202);
    const runId = started.json().id as string;

    const paused = await until(runId, ['paused', 'succeeded', 'failed']);
    expect(paused).toMatchObject({ state: 'paused', pause_reason: 'credits', error: null });
    const stepRun = paused.step_runs.find((s: { step_id: string }) => s.step_id === code.id);
    // Why, in words, on the run and on the step run it stopped (with the way out: a top-up). The run
    // is paused a statement before its step runs are: the step run is read once it is paused too.
    const outOfCredits = { code: 'credits', message: 'Paused: out of credits. Top up and the run resumes by itself, keeping the work already done.' };
    expect(paused.state_reason).toEqual(outOfCredits);
    let stepPaused = stepRun;
    await waitUntil('the step run to pause', async () => {
      stepPaused = (await runOf(runId)).step_runs.find((s: { id: string }) => s.id === stepRun.id);
      return stepPaused.state !== 'running';
    });
    expect(stepPaused).toMatchObject({ state: 'paused', state_reason: outOfCredits });
    expect((await api('GET', `/step-runs/${stepRun.id}/progress`)).json()).toMatchObject({ state: 'paused', state_reason: outOfCredits });
    await until(runId, ['paused']);
    // Paused after its first batch, which stays done; nothing after it was stored or charged.
    const batches = async () =>
      (await t.app.db.selectFrom('step_run_batches').select(['batch_no', 'state']).where('step_run_id', '=', stepRun.id).execute())
        .filter((b) => b.state === 'succeeded')
        .map((b) => Number(b.batch_no));
    expect(await batches()).toEqual([0]);
    expect((await api('GET', '/balance/')).json()).toEqual({ balance: -1, billing_enabled: true, paused_runs: 1 });
    const events = await t.app.db.selectFrom('run_events').select(['type', 'payload']).where('run_id', '=', runId).execute();
    expect(events.filter((e) => e.type === 'run_paused').map((e) => JSON.parse(e.payload))).toEqual([{ reason: 'credits' }]);
    expect(events.some((e) => e.type.endsWith('_failed'))).toBe(false);

    // A manual resume while the balance is spent: the same modal as before a run.
    const refused = await api('POST', `/workflow-runs/${runId}/control`, { action: 'resume' });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().modal).toMatchObject({ modal_id: 'insufficient-credits', level: 'warning', buttons: ['Top up', 'Cancel'] });
    expect((await runOf(runId)).state).toBe('paused');

    // A top-up (a purchase, a grant…) resumes it by itself.
    await t.app.credits.append([{ userId: owner.user.id, kind: 'grant', creditsMicro: toMicro(20), idempotencyKey: `test:topup:${owner.user.id}` }]);
    const done = await until(runId, ['succeeded', 'failed', 'cancelled']);
    expect([done.error, done.step_runs.map((s: { error: unknown }) => s.error)]).toEqual([null, [null, null, null]]);
    expect(done).toMatchObject({ state: 'succeeded', pause_reason: null, state_reason: null });
    expect(done.step_runs.map((s: { state_reason: unknown }) => s.state_reason)).toEqual([null, null, null]);

    const output = done.step_runs.find((s: { step_id: string }) => s.step_id === code.id).output_dataset_id;
    const rows: { n: number; double: number }[] = [];
    for (let page = 1; page <= Math.ceil(RECORDS / 200); page++)
      rows.push(...(await api('GET', `/datasets/${output}/records?page=${page}&page_size=200`)).json().items);
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: RECORDS }, (_, i) => i));

    // Each batch charged once: 500 + 500 + 234 records.
    const charged = await t.app.db
      .selectFrom('credit_ledger')
      .select(['quantity', 'credits_micro', 'idempotency_key'])
      .where('step_run_id', '=', stepRun.id)
      .orderBy('idempotency_key')
      .execute();
    expect(charged.map((c) => Number(c.quantity))).toEqual([500, 500, 234]);
    expect((await api('GET', '/balance/')).json()).toEqual({ balance: 4 - 12.34 + 20, billing_enabled: true, paused_runs: 0 });
    const records = (await api('GET', `/usage-records/?workflow_id=${workflowId}`)).json();
    expect(records.total).toBe(3);
    expect(records.items[0]).toMatchObject({
      unit: 'record',
      unit_price: 0.01,
      workflow_name: 'Numbers',
      step_type: 'code',
      run_id: runId,
      step_run_id: stepRun.id,
    });
  });
});
