import { STEP_RUN_JOB } from '../../engine/run';
import { RunsRepository } from './runs.repository';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { queueDrained, waitUntil } from '../../test/wait';
import { workflowClient } from '../../test/workflow-helpers';

/*
 * Why a run and its step runs are paused, failed or cancelled (`state_reason`), as GET
 * /workflow-runs/{id} and a step run's progress answer it, for each reason a test can provoke
 * through the API on the in-process queue (credits: usage/run-credits.test.ts). A reason is gone
 * once the run goes on.
 */
describe("a run's state reason", () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let wf: ReturnType<typeof workflowClient>;

  const api = (method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: { ...owner.auth, ...headers }, payload });
  const runOf = async (id: string, headers?: Record<string, string>) => (await api('GET', `/workflow-runs/${id}`, undefined, headers)).json();
  const finished = async (runId: string) => {
    let run = await runOf(runId);
    await waitUntil('the run to end', async () => ['succeeded', 'failed', 'cancelled'].includes((run = await runOf(runId)).state), 30_000);
    return run;
  };

  let workflows = 0;
  /** Numbers (others in each workflow: no step run is an earlier one's cached copy) → a code step running `code` on them. */
  async function numbersThen(code: string, params: object = {}) {
    const workflowId = (await wf.createWorkflow('Numbers')).id as string;
    const n = ++workflows * 10;
    const table = await wf.addStep(workflowId, 'table_input', { param_inputs: { columns: [{ name: 'n', type: 'integer' }], rows: [[n], [n + 1], [n + 2]] } });
    const step = await wf.addStep(workflowId, 'code', { inputs: [table.id], param_inputs: { code, ...params } });
    return { workflowId, table: table.id as string, code: step.id as string };
  }
  const start = async (workflowId: string, stepId: string) => {
    const res = await api('POST', `/workflow-execution/${workflowId}/steps/${stepId}/execute?mode=all`, {});
    expect(res.statusCode).toBe(202);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp({ IN_PROCESS_WORKER: 'true' });
    owner = await signedInUser(t.app);
    wf = workflowClient(t.app, owner.auth);
  });
  afterAll(() => t.close());

  it('says a run its user paused was paused by them, forgets it on resume, and says a cancel was theirs too', async () => {
    const { workflowId, code } = await numbersThen('return record;');
    await t.app.jobs.pause();
    const started = await start(workflowId, code);
    expect(started.state_reason).toBeNull();
    const paused = (await api('POST', `/workflow-runs/${started.id}/control`, { action: 'pause' })).json();
    await t.app.jobs.resume();
    await queueDrained(t.app.jobs, STEP_RUN_JOB);
    expect(paused).toMatchObject({ state: 'paused', pause_reason: null, state_reason: { code: 'by_user', message: 'Paused by you.' } });
    // Chinese readers get it in Chinese.
    expect((await runOf(started.id, { 'accept-language': 'zh-CN' })).state_reason).toEqual({ code: 'by_user', message: '已由你暂停。' });

    const resumed = (await api('POST', `/workflow-runs/${started.id}/control`, { action: 'resume' })).json();
    expect(resumed.state_reason).toBeNull();
    expect(resumed.step_runs.map((s: { state_reason: unknown }) => s.state_reason)).toEqual([null, null]);
    expect((await finished(started.id)).state).toBe('succeeded');

    await t.app.jobs.pause();
    const second = await start(workflowId, code);
    const cancelled = (await api('POST', `/workflow-runs/${second.id}/control`, { action: 'cancel' })).json();
    await t.app.jobs.resume();
    const byYou = { code: 'by_user', message: 'Cancelled by you.' };
    expect(cancelled).toMatchObject({ state: 'cancelled', state_reason: byYou });
    expect(cancelled.step_runs.map((s: { state: string; state_reason: unknown }) => [s.state, s.state_reason])).toEqual([
      ['cancelled', byYou],
      ['cancelled', byYou],
    ]);
    const progress = (await api('GET', `/step-runs/${cancelled.step_runs[1].id}/progress`)).json();
    expect(progress).toMatchObject({ state: 'cancelled', state_reason: byYou });
  });

  it('says a step run its user paused or cancelled was so by them, and the run ends cancelled by them', async () => {
    const { workflowId, code } = await numbersThen('return record;');
    await t.app.jobs.pause();
    const started = await start(workflowId, code);
    const [first, second] = started.step_runs.map((s: { id: string }) => s.id);
    const paused = (await api('POST', `/step-runs/${first}/control`, { action: 'pause' })).json();
    expect(paused).toMatchObject({ state: 'paused', state_reason: { code: 'by_user', message: 'Paused by you.' } });
    expect((await api('POST', `/step-runs/${first}/control`, { action: 'resume' })).json()).toMatchObject({ state: 'queued', state_reason: null });
    await api('POST', `/step-runs/${second}/control`, { action: 'cancel' });
    await t.app.jobs.resume();
    const run = await finished(started.id);
    expect(run).toMatchObject({ state: 'cancelled', state_reason: { code: 'by_user', message: 'Cancelled by you.' } });
    expect(run.step_runs.map((s: { state: string; state_reason: { code: string } | null }) => [s.state, s.state_reason?.code ?? null])).toEqual([
      ['succeeded', null],
      ['cancelled', 'by_user'],
    ]);
  });

  it('gives a failed run the error of its step as the reason, and forgets it on retry', async () => {
    const { workflowId, code } = await numbersThen('throw new Error("no such customer");');
    const run = await finished((await start(workflowId, code)).id);
    expect(run.state).toBe('failed');
    const failedStep = run.step_runs[1];
    expect(failedStep.state_reason).toEqual({ code: 'error', message: failedStep.error.message });
    expect(failedStep.error.message).toContain('no such customer');
    expect(run.state_reason).toEqual({ code: 'error', message: failedStep.error.message });

    const retried = (await api('POST', `/workflow-runs/${run.id}/control`, { action: 'retry' })).json();
    expect(retried.state_reason).toBeNull();
    expect(retried.step_runs[1].state_reason).toBeNull();
    expect((await finished(run.id)).state_reason).toEqual({ code: 'error', message: failedStep.error.message });
  });

  it('says a limit was reached when the code ran past its time limit', async () => {
    const { workflowId, code } = await numbersThen('while (true) {}', { timeout_ms: 100 });
    const run = await finished((await start(workflowId, code)).id);
    expect(run.state).toBe('failed');
    const failedStep = run.step_runs[1];
    expect(failedStep.state_reason).toEqual({ code: 'limit', message: failedStep.error.message });
    expect(failedStep.error.message).toMatch(/longer than its limit/);
    expect(run.state_reason).toEqual({ code: 'limit', message: failedStep.error.message });
  });

  /** Plants compute jobs left `running` by workers that died running the step run's first attempt. */
  async function workersDied(stepRunId: string, count: number) {
    const at = new Date().toISOString();
    await t.app.db.updateTable('step_runs').set({ state: 'running', started_at: at }).where('id', '=', stepRunId).execute();
    // As the runs repository starts a step's compute job; their workers never end them.
    const runs = new RunsRepository(t.app.db);
    for (let i = 0; i < count; i++) await runs.startComputeJob(stepRunId, `gone-${i}:1`, 1);
  }

  it('takes a step over from a lost worker, and fails it (worker_lost) once its workers died three times', async () => {
    const { workflowId, code } = await numbersThen('return record;');

    // Twice: taken over, and the run goes on.
    await t.app.jobs.pause();
    const survived = await start(workflowId, code);
    await workersDied(survived.step_runs[0].id, 2);
    await t.app.jobs.resume();
    const done = await finished(survived.id);
    expect([done.state, done.state_reason]).toEqual(['succeeded', null]);
    const jobs = (await api('GET', `/compute-jobs/step-runs/${survived.step_runs[0].id}/details`)).json().items;
    expect(jobs.map((j: { state: string }) => j.state)).toEqual(['failed', 'failed', 'succeeded']);

    // A third time: the step fails saying so, what follows is skipped, and the run fails for it.
    await t.app.jobs.pause();
    const started = await start(workflowId, code);
    await workersDied(started.step_runs[0].id, 3);
    await t.app.jobs.resume();
    const run = await finished(started.id);
    expect(run.step_runs.map((s: { state: string }) => s.state)).toEqual(['failed', 'skipped']);
    const lost = run.step_runs[0].state_reason;
    expect(lost.code).toBe('worker_lost');
    expect(lost.message).toMatch(/stopped 3 times/);
    expect(run.state_reason).toEqual(lost);
    expect(run.step_runs[1].state_reason).toBeNull();
    const progress = (await api('GET', `/step-runs/${started.step_runs[0].id}/progress`)).json();
    expect(progress.state_reason).toEqual(lost);
    // Retried, it starts a new attempt: the workers lost before count no more.
    await api('POST', `/workflow-runs/${run.id}/control`, { action: 'retry' });
    expect(await finished(run.id)).toMatchObject({ state: 'succeeded', state_reason: null });
  });
});
