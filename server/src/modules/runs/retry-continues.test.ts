import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HTTP_BATCH_SIZE } from '../../engine/step-types/http-request';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';

/*
 * A retry goes on from what is done: after a cancel, the records whose outside call finished in a
 * stored batch are not called again; "retry from scratch" calls every record again.
 */
describe('runs: a retry after a cancel continues, a retry from scratch starts over', () => {
  const RECORDS = 300;
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signedInUser>>;
  let wf: ReturnType<typeof workflowClient>;
  let server: http.Server;
  let base: string;
  /** Calls per record. */
  const calls = new Map<string, number>();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const n = new URL(req.url!, 'http://x').searchParams.get('n')!;
      calls.set(n, (calls.get(n) ?? 0) + 1);
      // Slow enough that a cancel lands while the step is midway.
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ double: Number(n) * 2 })), 5);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp({ IN_PROCESS_WORKER: 'true', HTTP_STEPS_ALLOW_PRIVATE: 'true' });
    user = await signedInUser(t.app);
    wf = workflowClient(t.app, user.auth);
  });
  afterAll(async () => {
    await t.close();
    server.close();
  });

  const api = (method: string, url: string, payload?: object) => t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: user.auth, payload });
  type Run = { id: string; state: string; step_runs: { id: string; state: string; records_done: number; output_dataset_id: string }[] };
  const until = async (runId: string, reached: (run: Run) => boolean): Promise<Run> => {
    for (let i = 0; i < 2400; i++) {
      const run = (await api('GET', `/workflow-runs/${runId}`)).json() as Run;
      if (reached(run)) return run;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the run did not get there');
  };
  const final = (run: Run) => ['succeeded', 'failed', 'cancelled'].includes(run.state);

  /** Starts the HTTP step over RECORDS records and cancels it once some batches are stored. */
  async function cancelledMidway(): Promise<Run> {
    const workflowId = (await wf.createWorkflow('Doubles')).id;
    const table = await wf.addStep(workflowId, 'table_input', {
      param_inputs: { columns: [{ name: 'n', type: 'integer' }], rows: Array.from({ length: RECORDS }, (_, i) => [i]) },
    });
    const call = await wf.addStep(workflowId, 'http_request', { inputs: [table.id], param_inputs: { url: `${base}/double?n={{field.n}}`, concurrency: 1 } });
    const started = (await api('POST', `/workflow-execution/${workflowId}/steps/${call.id}/execute`, {})).json() as Run;
    await until(started.id, (run) => run.step_runs[1].records_done >= HTTP_BATCH_SIZE);
    expect((await api('POST', `/workflow-runs/${started.id}/control`, { action: 'cancel' })).statusCode).toBe(200);
    const cancelled = await until(started.id, final);
    expect(cancelled.state).toBe('cancelled');
    return cancelled;
  }

  it('calls again at most the call that was in flight, and keeps every record once', async () => {
    calls.clear();
    const cancelled = await cancelledMidway();
    const doneAtCancel = cancelled.step_runs[1].records_done;
    expect(doneAtCancel).toBeLessThan(RECORDS);
    const calledBefore = new Map(calls);

    expect((await api('POST', `/workflow-runs/${cancelled.id}/control`, { action: 'retry' })).statusCode).toBe(200);
    const run = await until(cancelled.id, final);
    expect(run.state).toBe('succeeded');
    // Every record was called, and twice at most the one in flight at the cancel (concurrency 1):
    // the calls of the unfinished batch were checkpointed as their answers came. (That one may
    // reach this service only after the run read "cancelled": its request was already sent.)
    expect(calls.size).toBe(RECORDS);
    const again = [...calls.entries()].filter(([, n]) => n > 1).map(([n]) => n);
    expect(again.length).toBeLessThanOrEqual(1);
    expect([...calls.values()].every((n) => n <= 2)).toBe(true);
    expect(calledBefore.size).toBeGreaterThanOrEqual(doneAtCancel);

    const out = (await api('GET', `/datasets/${run.step_runs[1].output_dataset_id}/records?page_size=1000`)).json();
    expect(out.total).toBe(RECORDS);
    expect(new Set(out.items.map((r: { n: number }) => r.n)).size).toBe(RECORDS);
    const compute = (await api('GET', `/compute-jobs/step-runs/${run.step_runs[1].id}/details`)).json();
    expect(compute.items.at(-1).log_lines.join('\n')).toMatch(/Resuming after \d+ finished batch/);
    // Over Jest's 5 s at worst: two whole runs of 300 HTTP calls (2.4 s on an idle 2-core machine).
  }, 20_000);

  it('a retry from scratch waits for the stopped attempt: a batch it was still storing at the cancel does not stand in for its records', async () => {
    calls.clear();
    // A user of its own: two runs of 300 paid calls would use up the shared user's credits.
    user = await signedInUser(t.app);
    wf = workflowClient(t.app, user.auth);
    const workflowId = (await wf.createWorkflow('Slow parts')).id;
    const table = await wf.addStep(workflowId, 'table_input', {
      param_inputs: { columns: [{ name: 'n', type: 'integer' }], rows: Array.from({ length: RECORDS }, (_, i) => [i]) },
    });
    const call = await wf.addStep(workflowId, 'http_request', { inputs: [table.id], param_inputs: { url: `${base}/double?n={{field.n}}`, concurrency: 1 } });
    // The first batch's part is held while being stored: the cancel lands meanwhile, and the retry
    // is asked while the stopped attempt still has it to store. Held until the retry is answered,
    // or for a second at most (what the retry waits for, if it waits).
    const put = t.app.storage.put.bind(t.app.storage);
    let held = false;
    let stored = false;
    let release = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    const storing = jest.spyOn(t.app.storage, 'put').mockImplementation(async (key, body) => {
      if (held || !key.includes('/part-')) return put(key, body);
      held = true;
      await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 1000))]);
      const written = await put(key, body);
      stored = true;
      return written;
    });
    try {
      const started = (await api('POST', `/workflow-execution/${workflowId}/steps/${call.id}/execute`, {})).json() as Run;
      await until(started.id, () => held);
      expect((await api('POST', `/workflow-runs/${started.id}/control`, { action: 'cancel' })).statusCode).toBe(200);
      expect((await until(started.id, final)).state).toBe('cancelled');
      const calledBefore = new Map(calls);
      expect((await api('POST', `/workflow-runs/${started.id}/control`, { action: 'retry_from_scratch' })).statusCode).toBe(200);
      // The retry waited for the stopped attempt, whose batch is stored before the new attempt begins.
      const storedWhenAnswered = stored;
      release();
      expect(storedWhenAnswered).toBe(true);
      expect((await until(started.id, final)).state).toBe('succeeded');
      expect([...calledBefore].filter(([n, before]) => calls.get(n)! <= before)).toEqual([]);
      expect(calls.size).toBe(RECORDS);
    } finally {
      storing.mockRestore();
    }
    // Over Jest's 5 s at worst: a run and a full redo of 300 HTTP calls, and a part stored slowly.
  }, 20_000);

  it('calls again after a pause and resume at most the call that was in flight', async () => {
    calls.clear();
    const workflowId = (await wf.createWorkflow('Paused doubles')).id;
    const table = await wf.addStep(workflowId, 'table_input', {
      param_inputs: { columns: [{ name: 'n', type: 'integer' }], rows: Array.from({ length: RECORDS }, (_, i) => [i]) },
    });
    const call = await wf.addStep(workflowId, 'http_request', { inputs: [table.id], param_inputs: { url: `${base}/double?n={{field.n}}`, concurrency: 1 } });
    const started = (await api('POST', `/workflow-execution/${workflowId}/steps/${call.id}/execute`, {})).json() as Run;
    // Paused in the middle of a batch: some of its calls answered, none of it stored.
    await until(started.id, () => calls.size >= HTTP_BATCH_SIZE + 20);
    expect((await api('POST', `/workflow-runs/${started.id}/control`, { action: 'pause' })).statusCode).toBe(200);
    await until(started.id, (run) => run.state === 'paused' && run.step_runs[1].state === 'paused');
    expect((await api('POST', `/workflow-runs/${started.id}/control`, { action: 'resume' })).statusCode).toBe(200);
    expect((await until(started.id, final)).state).toBe('succeeded');
    expect(calls.size).toBe(RECORDS);
    expect([...calls.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(1);
    // Over Jest's 5 s at worst: a run of 300 HTTP calls with a pause in it.
  }, 20_000);

  it('calls every record again on a retry from scratch', async () => {
    calls.clear();
    const cancelled = await cancelledMidway();
    const calledBefore = new Map(calls);
    expect(calledBefore.size).toBeGreaterThan(0);
    expect((await api('POST', `/workflow-runs/${cancelled.id}/control`, { action: 'retry_from_scratch' })).statusCode).toBe(200);
    expect((await until(cancelled.id, final)).state).toBe('succeeded');
    // Each record called before is called again (the call in flight at the cancel may have reached
    // this service after `calledBefore` was read, and is called again too).
    expect([...calledBefore].filter(([n, before]) => calls.get(n)! <= before)).toEqual([]);
    expect(calls.size).toBe(RECORDS);
    // Over Jest's 5 s at worst: a run and a full redo of 300 HTTP calls (2.7 s on an idle 2-core machine).
  }, 20_000);
});
