import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatasetMetadata } from '../../engine/datasets';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { queueDrained } from '../../test/wait';
import { workflowClient } from '../../test/workflow-helpers';
import { DatasetsService } from '../datasets/datasets.service';
import { STEP_RUN_JOB } from '../../engine/run';

/*
 * Runs through the API on the in-process queue and real DuckDB: a source's output is planted as
 * an earlier run's (sources have their own tests), then filter → group → sort run from it.
 */
describe('runs', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let stranger: Awaited<ReturnType<typeof signedInUser>>;
  let wf: ReturnType<typeof workflowClient>;
  let workflowId: string;
  let source: { id: string; name: string };
  let filter: { id: string };
  let group: { id: string };
  let sort: { id: string };
  let orders: DatasetMetadata;

  const api = (who: { auth: Record<string, string> }, method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: who.auth, payload });

  const execute = async (stepId: string, query = 'mode=all') => {
    const res = await api(owner, 'POST', `/workflow-execution/${workflowId}/steps/${stepId}/execute?${query}`, {});
    expect(res.statusCode).toBe(202);
    return res.json();
  };

  /** Polls the run as a screen would, until it is final. */
  const finished = async (runId: string) => {
    for (let i = 0; i < 400; i++) {
      const run = (await api(owner, 'GET', `/workflow-runs/${runId}`)).json();
      if (['succeeded', 'failed', 'cancelled'].includes(run.state)) return run;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('run did not finish');
  };

  const recordsOf = async (datasetId: string) => (await api(owner, 'GET', `/datasets/${datasetId}/records?page_size=100`)).json().items;

  beforeAll(async () => {
    t = await createTestApp({ IN_PROCESS_WORKER: 'true' });
    owner = await signedInUser(t.app);
    stranger = await signedInUser(t.app);
    wf = workflowClient(t.app, owner.auth);
    workflowId = (await wf.createWorkflow('Orders')).id;
    source = await wf.addStep(workflowId, 'import_csv');
    const add = (type: string, inputs: string[], params: object): Promise<{ id: string }> => wf.addStep(workflowId, type, { inputs, param_inputs: params });
    filter = await add('filter', [source.id], { condition: 'amount > 10' });
    group = await add('aggregate', [filter.id], { group_by: ['country'], aggregations: [{ column: 'amount', function: 'sum', as: 'total' }] });
    sort = await add('sort', [group.id], { columns: ['total'], direction: 'descending' });

    // The source step's output, as an earlier run of it would have left it.
    const ownerId = owner.user.id as string;
    const now = new Date().toISOString();
    const runId = randomUUID();
    const stepRunId = randomUUID();
    const db = t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await db
      .insertInto('workflow_runs')
      .values({
        id: runId,
        workflow_id: workflowId,
        user_id: ownerId,
        workflow_version: 1,
        snapshot: '{"steps":[],"variables":[],"external":{}}',
        mode: 'only',
        target_step_id: source.id,
        sample_size: null,
        state: 'succeeded',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('step_runs')
      .values({
        id: stepRunId,
        run_id: runId,
        step_id: source.id,
        step_type: 'import_csv',
        params_hash: 'p',
        cache_key: 'k',
        input_dataset_ids: '[]',
        created_at: now,
        updated_at: now,
      })
      .execute();
    orders = await t.app.datasets.write({
      ownerId,
      name: 'Orders',
      stepRunId,
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
            { country: '日本', amount: 30 },
            { country: 'DE', amount: 15 },
            { country: 'NL', amount: 11 },
          ],
        ],
      },
    });
    await new DatasetsService(t.app.db, t.app.datasets).registerDataset(orders);
    await db.updateTable('step_runs').set({ state: 'succeeded', output_dataset_id: orders.id, ended_at: now }).where('id', '=', stepRunId).execute();
  });
  afterAll(() => t.close());

  it('runs a step and everything after it, each step reading the one before, and tells how it went', async () => {
    const started = await execute(filter.id, 'mode=from');
    expect(started.message).toBe('Run started.');
    expect(started.started_by).toBe('user');
    expect(started.step_runs.map((s: { step_id: string }) => s.step_id)).toEqual([filter.id, group.id, sort.id]);
    const run = await finished(started.id);
    expect(run.state).toBe('succeeded');
    expect(run.percent).toBe(100);
    expect(run.step_runs.map((s: { state: string }) => s.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const [filtered, grouped, sorted] = run.step_runs;
    // Deferred (a SQL step writes nothing until its output is read), counted when the ended run was read.
    expect(filtered).toMatchObject({ records_total: 5, input_dataset_ids: [orders.id], step_name: expect.any(String) });
    expect(grouped.input_dataset_ids).toEqual([filtered.output_dataset_id]);
    expect((await recordsOf(sorted.output_dataset_id)).map((r: { country: string; total: number }) => [r.country, r.total])).toEqual([
      ['DE', 65],
      ['NL', 31],
      ['日本', 30],
    ]);
    // The dataset knows where it came from.
    const dataset = (await api(owner, 'GET', `/datasets/${sorted.output_dataset_id}`)).json();
    expect(dataset).toMatchObject({ run_id: run.id, step_id: sort.id, workflow_id: workflowId, parents: [{ id: grouped.output_dataset_id }] });
    // Progress and compute details of a finished step run.
    const progress = (await api(owner, 'GET', `/step-runs/${filtered.id}/progress`)).json();
    // The filter's output is deferred: its count is the one found when the ended run was read.
    expect(progress).toMatchObject({ state: 'succeeded', records_done: 5, records_total: 5, percent: 100, eta_seconds: null });
    const compute = (await api(owner, 'GET', `/compute-jobs/step-runs/${filtered.id}/details`)).json();
    expect(compute.items).toHaveLength(1);
    expect(compute.items[0]).toMatchObject({ state: 'succeeded', attempt: 1, worker: expect.stringContaining(':') });
    expect(compute.items[0].log_lines.join('\n')).toContain('Done: deferred');
  });

  it('reuses an equal earlier step run instead of computing it again', async () => {
    const first = await finished((await execute(filter.id, 'mode=only')).id);
    const again = await finished((await execute(filter.id, 'mode=only')).id);
    expect(again.step_runs[0].state).toBe('cached');
    expect(again.step_runs[0].output_dataset_id).toBe(first.step_runs[0].output_dataset_id);
  });

  it("serves the run's log lines in the reader's language, each with its time apart", async () => {
    const run = await finished((await execute(sort.id, 'mode=only')).id);
    const stepRunId = run.step_runs[0].id;
    const details = async (language: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/compute-jobs/step-runs/${stepRunId}/details`,
          headers: { ...owner.auth, 'accept-language': language },
        })
      )
        .json()
        .items.at(-1);
    const [english, chinese] = [await details('en-US,en;q=0.9'), await details('zh-CN,zh;q=0.9')];
    const lines = (job: { log: { at: string | null; text: string }[] }) => job.log.map((l) => l.text);
    // The step ran or, being cacheable, reused an earlier equal run's output: either is said in both.
    expect(lines(english)[0]).toMatch(/^(Running sort on |Reused the output of an equal earlier step run)/);
    expect(lines(chinese)[0]).toMatch(/^(正在对 .+ 运行 sort|沿用了之前一次相同步骤运行的输出)/);
    expect(lines(chinese).join('\n')).not.toMatch(/Running|Done|Reused|record\(s\)/);
    expect(chinese.log).toHaveLength(english.log.length);
    for (const line of [...english.log, ...chinese.log]) {
      // The time is its own field (the browser shows it in the reader's zone), not in the text.
      expect(new Date(line.at).toISOString()).toBe(line.at);
      expect(line.text).not.toMatch(/\d{4}-\d\d-\d\dT/);
    }
    expect(chinese.log.map((l: { at: string }) => l.at)).toEqual(english.log.map((l: { at: string }) => l.at));
    // The plain-text form keeps its old shape for scripts: time, then the line.
    expect(english.log_lines).toEqual(english.log.map((l: { at: string; text: string }) => `${l.at} ${l.text}`));
  });

  it('reads log lines stored before they had keys: their time apart, their English text as it was', async () => {
    const run = await finished((await execute(group.id, 'mode=only')).id);
    const stepRunId = run.step_runs[0].id;
    const at = '2026-11-20T10:00:00.000Z';
    await t.app.db
      .insertInto('compute_jobs')
      .values({
        id: randomUUID(),
        step_run_id: stepRunId,
        batch_no: null,
        state: 'succeeded',
        worker: 'old:1',
        attempt: 9,
        queued_at: at,
        started_at: at,
        ended_at: at,
        cpu_ms: 0,
        peak_rss_bytes: null,
        cost_micros: 0,
        log_lines: JSON.stringify([`${at} Done: 3 record(s)`]),
        log_dropped: 0,
        error: null,
      })
      .execute();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/compute-jobs/step-runs/${stepRunId}/details`,
      headers: { ...owner.auth, 'accept-language': 'zh-CN' },
    });
    const old = res.json().items.find((j: { worker: string }) => j.worker === 'old:1');
    expect(old.log).toEqual([{ at, text: 'Done: 3 record(s)' }]);
  });

  it("streams the run's events as server-sent events, in order, and ends with the run", async () => {
    const run = await finished((await execute(group.id, 'mode=from')).id);
    const res = await api(owner, 'GET', `/workflow-runs/${run.id}/events`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const types = [...res.body.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(types[0]).toBe('run_started');
    expect(types.at(-1)).toBe('run_succeeded');
    expect(types.filter((x) => x === 'step_started')).toHaveLength(2);
    // Resuming after an event id sends only what came after it.
    const later = await t.app.inject({ method: 'GET', url: `/api/v1/workflow-runs/${run.id}/events`, headers: { ...owner.auth, 'last-event-id': '2' } });
    expect(later.body).not.toContain('id: 1\n');
    expect(later.body).toContain('id: 3\n');
  });

  it("keeps the event stream open until the run's end event is written, even when the run's state says it ended first", async () => {
    await t.app.jobs.pause();
    const started = await execute(filter.id, 'mode=only');
    const db = t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    // What the engine does in two statements, caught between them: the state is final, the event not yet written.
    await db.updateTable('workflow_runs').set({ state: 'succeeded' }).where('id', '=', started.id).execute();
    const stream = await t.app.inject({ method: 'GET', url: `/api/v1/workflow-runs/${started.id}/events`, headers: owner.auth, payloadAsStream: true });
    // One iterator for the whole test: leaving a for-await loop would destroy the stream.
    const chunks = stream.stream()[Symbol.asyncIterator]();
    let body = '';
    /** Reads until `seen` holds (true) or the stream ends (false); without `seen`, to the end. */
    const readUntil = async (seen: (text: string) => boolean = () => false) => {
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        body += String(next.value);
        if (seen(body)) return true;
      }
      return false;
    };
    expect(await readUntil((text) => text.includes('event: run_started'))).toBe(true);
    // A wake-up of the stream that brings no end event yet (as one for the step before it would):
    // the stream reads, finds nothing new, and goes on (a keep-alive comment after the wake-up).
    const before = body.length;
    t.app.runEvents.notify(started.id);
    expect(await readUntil((text) => text.slice(before).includes(': keep-alive'))).toBe(true);
    await t.app.runs.repo.appendEvent(started.id, null, 'run_succeeded', {});
    t.app.runEvents.notify(started.id);
    await readUntil();
    const types = [...body.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    await t.app.jobs.resume();
    expect(types).toEqual(['run_started', 'run_succeeded']);
  });

  it('fails a step whose settings do not fit its input, names the column, and skips what follows', async () => {
    await wf.ok('PATCH', `/workflow-steps/${filter.id}/param-inputs/partial`, { param_inputs: { condition: 'price > 10' } });
    const run = await finished((await execute(filter.id, 'mode=from')).id);
    expect(run.state).toBe('failed');
    expect(run.step_runs.map((s: { state: string }) => s.state)).toEqual(['failed', 'skipped', 'skipped']);
    expect(run.step_runs[0].error.message).toContain('“price”');
    expect(run.error.message).toBe(run.step_runs[0].error.message);
    await wf.ok('PATCH', `/workflow-steps/${filter.id}/param-inputs/partial`, { param_inputs: { condition: 'amount > 10' } });
  });

  it('pauses, resumes and cancels a run; queued work waits and nothing runs after a cancel', async () => {
    await t.app.jobs.pause();
    const started = await execute(filter.id, 'mode=from');
    const paused = (await api(owner, 'POST', `/workflow-runs/${started.id}/control`, { action: 'pause' })).json();
    expect(paused).toMatchObject({ state: 'paused', message: 'Paused.' });
    await t.app.jobs.resume();
    // The paused run's queued step jobs have been taken and have stopped (or were never there).
    await queueDrained(t.app.jobs, STEP_RUN_JOB);
    expect((await api(owner, 'GET', `/workflow-runs/${started.id}`)).json().state).toBe('paused');
    expect((await api(owner, 'POST', `/workflow-runs/${started.id}/control`, { action: 'resume' })).json().state).toBe('running');
    expect((await finished(started.id)).state).toBe('succeeded');

    await t.app.jobs.pause();
    const second = await execute(filter.id, 'mode=from');
    const cancelled = (await api(owner, 'POST', `/workflow-runs/${second.id}/control`, { action: 'cancel' })).json();
    await t.app.jobs.resume();
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.step_runs.every((s: { state: string }) => s.state === 'cancelled')).toBe(true);
    const again = await api(owner, 'POST', `/workflow-runs/${second.id}/control`, { action: 'pause' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('Cannot pause a run that is cancelled.');
  });

  it('retries a failed step run and the steps it skipped', async () => {
    await t.app.jobs.pause();
    const started = await execute(filter.id, 'mode=from');
    // The filter's input disappears before it runs, so it fails; then it comes back.
    const db = t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await db.updateTable('datasets').set({ user_id: stranger.user.id }).where('id', '=', orders.id).execute();
    await t.app.jobs.resume();
    const failed = await finished(started.id);
    expect(failed.step_runs.map((s: { state: string }) => s.state)).toEqual(['failed', 'skipped', 'skipped']);
    await db.updateTable('datasets').set({ user_id: owner.user.id }).where('id', '=', orders.id).execute();
    const retried = await api(owner, 'POST', `/step-runs/${failed.step_runs[0].id}/control`, { action: 'retry' });
    expect(retried.statusCode).toBe(200);
    const done = await finished(started.id);
    expect(done.state).toBe('succeeded');
    expect(done.step_runs[0].attempt).toBe(1);
  });

  it('refuses to run what cannot run: a step needing settings, an input never run, a bad mode', async () => {
    const res = await api(owner, 'POST', `/workflow-execution/${workflowId}/steps/${source.id}/execute?mode=only`, {});
    expect(res.statusCode).toBe(422);
    // Said as the step form says it (issue 11/13: it said check “file” at stepId): the param's label, the step's name.
    const [problem] = res.json().errors;
    expect(problem).toEqual({
      msg: `The step “${source.name}” needs settings before it can run: check “CSV file”.`,
      loc: ['path', 'stepId'],
      label: source.name,
    });
    const zh = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workflow-execution/${workflowId}/steps/${source.id}/execute?mode=only`,
      headers: { ...owner.auth, 'accept-language': 'zh-CN' },
      payload: {},
    });
    expect(zh.json().errors[0].msg).toContain('请检查 “CSV 文件”');
    const fresh = (await wf.createWorkflow('Empty')).id;
    const lonely = await wf.addStep(fresh, 'filter', { param_inputs: { condition: 'a > 1' } });
    const noInput = await api(owner, 'POST', `/workflow-execution/${fresh}/steps/${lonely.id}/execute?mode=only`, {});
    expect(noInput.statusCode).toBe(422);
    expect((await api(owner, 'POST', `/workflow-execution/${workflowId}/steps/${filter.id}/execute?mode=sideways`, {})).statusCode).toBe(422);
    expect((await api(owner, 'POST', `/workflow-execution/${workflowId}/steps/${filter.id}/execute?sample_size=0`, {})).statusCode).toBe(422);
  });

  it('shows each user only their own runs, step runs and compute jobs', async () => {
    const run = await finished((await execute(filter.id, 'mode=only')).id);
    const stepRunId = run.step_runs[0].id;
    const calls: [string, string, object?][] = [
      ['GET', `/workflow-runs/${run.id}`],
      ['GET', `/workflow-runs/${run.id}/events`],
      ['POST', `/workflow-runs/${run.id}/control`, { action: 'retry' }],
      ['POST', `/step-runs/${stepRunId}/control`, { action: 'retry' }],
      ['GET', `/step-runs/${stepRunId}/progress`],
      ['POST', '/compute-jobs/compute-jobs/details', { step_run_ids: [stepRunId] }],
      ['POST', '/compute-jobs/compute-jobs/start', { step_run_id: stepRunId }],
      ['POST', '/compute-jobs/compute-jobs/stop', { step_run_id: stepRunId }],
      ['GET', `/compute-jobs/step-runs/${stepRunId}/details`],
      ['POST', `/workflow-execution/${workflowId}/steps/${filter.id}/execute`, {}],
    ];
    for (const [method, url, body] of calls) expect([url, (await api(stranger, method, url, body)).statusCode]).toEqual([url, 404]);
    const list = (await api(stranger, 'GET', `/workflow-runs/?workflow_id=${workflowId}`)).json();
    expect(list.total).toBe(0);
    expect((await api(owner, 'GET', `/workflow-runs/?workflow_id=${workflowId}`)).json().total).toBeGreaterThan(5);
  });

  it("runs an export step at the end of a run and saves its CSV among the owner's files", async () => {
    const exporter = await wf.addStep(workflowId, 'export_csv', { inputs: [sort.id], param_inputs: { file_name: 'totals.csv' } });
    const run = await finished((await execute(group.id, 'mode=from')).id);
    expect(run.state).toBe('succeeded');
    expect(run.step_runs.at(-1)).toMatchObject({ step_id: exporter.id, state: 'succeeded' });
    const events = (await api(owner, 'GET', `/workflow-runs/${run.id}/events`)).body;
    const saved = [...events.matchAll(/^event: step_succeeded\ndata: (.+)$/gm)].map((m) => JSON.parse(m[1])).find((e) => e.step_id === exporter.id);
    expect(saved.summary.files).toEqual([{ id: expect.any(String), name: 'totals.csv' }]);
    const file = await api(owner, 'GET', `/files/files/${saved.summary.files[0].id}/download`);
    expect(file.statusCode).toBe(200);
    expect(file.body.trim().split('\n')).toEqual(['country,total', 'DE,65', 'NL,31', '日本,30']);
  });
  it('runs a code step over several batches and keeps every record once, in input order', async () => {
    const lines = Array.from({ length: 1234 }, (_, i) => `${i},${i % 7}`).join('\n');
    const upload = `--b\r\nContent-Disposition: form-data; name="files"; filename="numbers.csv"\r\nContent-Type: text/csv\r\n\r\nn,k\n${lines}\n\r\n--b--\r\n`;
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files/',
      headers: { ...owner.auth, 'content-type': 'multipart/form-data; boundary=b' },
      payload: upload,
    });
    const numbers = (await wf.createWorkflow('Numbers')).id;
    const load = await wf.addStep(numbers, 'import_csv', { param_inputs: { file: uploaded.json().items[0].id } });
    const code = await wf.addStep(numbers, 'code', {
      inputs: [load.id],
      param_inputs: { code: 'return record.k === 3 ? null : { n: record.n, square: record.n * record.n };' },
    });
    const res = await api(owner, 'POST', `/workflow-execution/${numbers}/steps/${code.id}/execute?mode=all`, {});
    const run = await finished(res.json().id);
    expect(run.state).toBe('succeeded');
    const kept = Array.from({ length: 1234 }, (_, i) => i).filter((i) => i % 7 !== 3);
    const output = run.step_runs[1].output_dataset_id;
    const pages = [];
    for (let page = 1; page <= Math.ceil(kept.length / 100); page++)
      pages.push(...(await api(owner, 'GET', `/datasets/${output}/records?page=${page}&page_size=100`)).json().items);
    expect(pages.map((r: { n: number; square: number }) => [r.n, r.square])).toEqual(kept.map((i) => [i, i * i]));
  });
});

describe('runs without a worker', () => {
  it('says at once that nothing will take the run, instead of leaving it queued in silence', async () => {
    const t = await createTestApp({ IN_PROCESS_WORKER: 'false' });
    try {
      const owner = await signedInUser(t.app);
      const wf = workflowClient(t.app, owner.auth);
      const workflowId = (await wf.createWorkflow('Waiting')).id;
      const table = await wf.addStep(workflowId, 'table_input', { param_inputs: { columns: [{ name: 'n', type: 'integer' }], rows: [[1]] } });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/workflow-execution/${workflowId}/steps/${table.id}/execute?mode=all`,
        headers: owner.auth,
        payload: {},
      });
      expect(res.statusCode).toBe(202);
      expect(res.json().warnings).toEqual([expect.stringContaining('npm run worker')]);
      expect(res.json().step_runs.map((s: { state: string }) => s.state)).toEqual(['queued']);
    } finally {
      await t.close();
    }
  });
});
