import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutputCounts } from '../../engine/run/output-counts';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { queueDrained } from '../../test/wait';
import { workflowClient } from '../../test/workflow-helpers';
import { STEP_RUN_JOB } from '../../engine/run';

/*
 * Whole runs as a user makes them, through the API only: a CSV uploaded to their files, read by
 * Import CSV, through SQL steps and a per-record code step, exported back to their files.
 */
describe('runs: from an uploaded CSV to an exported one', () => {
  let t: TestApp;
  let defaultSmallOutputRows: number;
  let user: Awaited<ReturnType<typeof signedInUser>>;
  let wf: ReturnType<typeof workflowClient>;

  const api = (method: string, url: string, payload?: object) => t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: user.auth, payload });

  async function upload(name: string, text: string): Promise<string> {
    const payload = `--b\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n${text}\r\n--b--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files/',
      headers: { ...user.auth, 'content-type': 'multipart/form-data; boundary=b' },
      payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json().items[0].id;
  }

  const finished = async (runId: string, until: (run: { state: string }) => boolean = (r) => ['succeeded', 'failed', 'cancelled'].includes(r.state)) => {
    for (let i = 0; i < 1200; i++) {
      const run = (await api('GET', `/workflow-runs/${runId}`)).json();
      if (until(run)) return run;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('run did not get there');
  };

  const allRecords = async (datasetId: string) => {
    const items: Record<string, unknown>[] = [];
    for (let page = 1; ; page++) {
      const body = (await api('GET', `/datasets/${datasetId}/records?page=${page}&page_size=1000`)).json();
      items.push(...body.items);
      if (items.length >= body.total) return items;
    }
  };

  beforeAll(async () => {
    // What counting writes is asserted below: no small output is written once counted (deferred.test.ts).
    defaultSmallOutputRows = OutputCounts.smallOutputRows;
    OutputCounts.smallOutputRows = 0;
    t = await createTestApp({ IN_PROCESS_WORKER: 'true' });
    user = await signedInUser(t.app);
    wf = workflowClient(t.app, user.auth);
  });
  afterAll(async () => {
    OutputCounts.smallOutputRows = defaultSmallOutputRows;
    await t.close();
  });

  it("imports, filters, adds a formula column, groups, sorts and exports a CSV into the user's files", async () => {
    const fileId = await upload(
      'sales.csv',
      'region,product,qty,price\nNorth,Apple,3,1.5\nSouth,Pear,1,2\nNorth,Pear,10,2\nEast,Apple,0,1.5\nSouth,Apple,4,1.5\n北,Fig,2,5\n',
    );
    const workflowId = (await wf.createWorkflow('Sales')).id;
    const add = (type: string, inputs: string[], params: object): Promise<{ id: string }> => wf.addStep(workflowId, type, { inputs, param_inputs: params });
    const load = await add('import_csv', [], { file: fileId });
    const sold = await add('filter', [load.id], { condition: 'qty > 0' });
    const revenue = await add('add_column', [sold.id], { new_column: 'revenue', expression: 'qty * price' });
    const byRegion = await add('aggregate', [revenue.id], { group_by: ['region'], aggregations: [{ column: 'revenue', function: 'sum', as: 'revenue' }] });
    const ranked = await add('sort', [byRegion.id], { columns: ['revenue'], direction: 'descending' });
    const exported = await add('export_csv', [ranked.id], { file_name: 'revenue.csv' });

    const started = (await api('POST', `/workflow-execution/${workflowId}/steps/${exported.id}/execute?mode=all`, {})).json();
    const run = await finished(started.id);
    expect([run.state, run.step_runs.map((s: { error: unknown }) => s.error)]).toEqual(['succeeded', run.step_runs.map(() => null)]);
    // Import and the SQL steps are deferred (nothing written: one fused query ran, in the export);
    // reading the ended run counts their rows over their recipes, still writing nothing, and the
    // export counted what it wrote.
    expect(run.step_runs.map((s: { state: string; records_total: number | null }) => [s.state, s.records_total])).toEqual([
      ['succeeded', 6],
      ['succeeded', 5],
      ['succeeded', 5],
      ['succeeded', 3],
      ['succeeded', 3],
      ['succeeded', 3],
    ]);
    const listed = (await api('GET', '/datasets?page_size=100')).json();
    expect(
      listed.items.filter((d: { id: string }) => d.id === run.step_runs[0].output_dataset_id).map((d: { row_count: number | null }) => d.row_count),
    ).toEqual([null]);
    // Counting wrote nothing: the import's snapshot is still not stored.
    expect(await t.app.storage.head(`datasets/${user.user.id}/${run.step_runs[0].output_dataset_id}.parquet`)).toBeNull();
    // Opening each output writes its snapshot then, with the counts.
    const counts = [];
    for (const s of run.step_runs.slice(0, 5)) counts.push((await api('GET', `/datasets/${s.output_dataset_id}`)).json().row_count);
    expect(counts).toEqual([6, 5, 5, 3, 3]);

    // The export is a file among the user's files, with what the steps made of the data.
    const files = (await api('GET', '/files/folders/root')).json();
    const saved = files.items.find((f: { name: string }) => f.name === 'revenue.csv');
    expect(saved).toBeDefined();
    const text = (await api('GET', `/files/files/${saved.id}/download`)).body;
    expect(text.trim().split('\n')).toEqual(['region,revenue', 'North,24.5', '北,10.0', 'South,8.0']);
    const compute = (await api('GET', `/compute-jobs/step-runs/${run.step_runs[5].id}/details`)).json();
    expect(compute.items[0].log_lines.join('\n')).toContain('Saved revenue.csv');

    // The columns each step makes are known to the next step's field picker now.
    const fields = (await api('GET', `/workflows/${workflowId}/steps/${byRegion.id}/variable-fields`)).json();
    expect(fields.fields.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual([
      'region:VARCHAR',
      'product:VARCHAR',
      'qty:BIGINT',
      'price:DOUBLE',
      'revenue:DOUBLE',
    ]);
    expect(fields.notes).toEqual([]);
    const input = (await api('GET', `/workflow-steps/${byRegion.id}/input-dataset`)).json();
    expect(input).toMatchObject({ id: run.step_runs[2].output_dataset_id, row_count: 5 });
    // What the editor shows beside a step: its own newest output, with the count and the columns.
    const output = (await api('GET', `/workflow-steps/${byRegion.id}/output-dataset`)).json();
    expect(output).toMatchObject({ id: run.step_runs[3].output_dataset_id, row_count: 3, step_id: byRegion.id });
    expect(output.columns.map((c: { name: string }) => c.name)).toEqual(['_id', 'region', 'revenue']);
    const info = (await api('GET', `/workflows/${workflowId}/info`)).json();
    expect(info.last_run).toMatchObject({ id: run.id, status: 'succeeded' });
    expect(info.datasets.map((d: { step_id: string }) => d.step_id)).toEqual([load.id, sold.id, revenue.id, byRegion.id, ranked.id, exported.id]);
  });

  it('previews on a sample: the source reads only its first records', async () => {
    const fileId = await upload('many.csv', `n\n${Array.from({ length: 500 }, (_, i) => i).join('\n')}\n`);
    const workflowId = (await wf.createWorkflow('Sample')).id;
    const load = await wf.addStep(workflowId, 'import_csv', { param_inputs: { file: fileId } });
    const started = (await api('POST', `/workflow-execution/${workflowId}/steps/${load.id}/execute?mode=up_to&sample_size=100`, {})).json();
    expect(started.message).toBe('Preview started on a sample of the records.');
    const run = await finished(started.id);
    expect(run.step_runs[0].records_total).toBe(100); // deferred, counted when the ended run was read
    const dataset = (await api('GET', `/datasets/${run.step_runs[0].output_dataset_id}`)).json();
    expect(dataset.expires_at).not.toBeNull();
    expect(dataset.row_count).toBe(100);
  });

  it('runs code per record in batches, pauses between batches, resumes where it stopped, and keeps every record once', async () => {
    const rows = 3000;
    const fileId = await upload('people.csv', `id,age\n${Array.from({ length: rows }, (_, i) => `${i},${i % 90}`).join('\n')}\n`);
    const workflowId = (await wf.createWorkflow('Code')).id;
    const load = await wf.addStep(workflowId, 'import_csv', { param_inputs: { file: fileId } });
    // Slow enough per batch (500 records) that a pause lands between batches.
    const code = await wf.addStep(workflowId, 'code', {
      inputs: [load.id],
      param_inputs: {
        mode: 'per_batch',
        code: 'const until = Date.now() + 150; while (Date.now() < until) {}\nreturn records.map((r) => ({ ...r, adult: r.age >= 18 }));',
      },
    });
    const started = (await api('POST', `/workflow-execution/${workflowId}/steps/${code.id}/execute?mode=all`, {})).json();
    const codeRunId = started.step_runs[1].id;
    await finished(started.id, (r) => (r as unknown as { step_runs: { records_done: number }[] }).step_runs[1].records_done > 0);
    const paused = (await api('POST', `/workflow-runs/${started.id}/control`, { action: 'pause' })).json();
    expect(paused.state).toBe('paused');
    const stopped = await finished(started.id, (r) => (r as unknown as { step_runs: { state: string }[] }).step_runs[1].state === 'paused');
    const doneAtPause = stopped.step_runs[1].records_done;
    expect(doneAtPause).toBeLessThan(rows);
    // Its job has stopped and no other took its place: nothing more will be done until resumed.
    await queueDrained(t.app.jobs, STEP_RUN_JOB);
    expect((await api('GET', `/step-runs/${codeRunId}/progress`)).json().records_done).toBe(doneAtPause);

    expect((await api('POST', `/workflow-runs/${started.id}/control`, { action: 'resume' })).json().state).toBe('running');
    const run = await finished(started.id);
    expect(run.state).toBe('succeeded');
    const out = await allRecords(run.step_runs[1].output_dataset_id);
    expect(out).toHaveLength(rows);
    const input = await allRecords(run.step_runs[0].output_dataset_id);
    expect(out.map((r) => r._id)).toEqual(input.map((r) => r._id));
    expect(out.filter((r) => r.adult === true)).toHaveLength(input.filter((r) => Number(r.age) >= 18).length);
    const compute = (await api('GET', `/compute-jobs/step-runs/${codeRunId}/details`)).json();
    expect(compute.items.length).toBeGreaterThanOrEqual(2);
    expect(compute.items[0].state).toBe('paused');
    expect(compute.items.at(-1).log_lines.join('\n')).toMatch(/Resuming after \d+ finished batch/);
  });

  it('fails a code step that throws, with the record and line, and retries it after the fix is in the step run', async () => {
    const fileId = await upload('ages.csv', 'age\n1\n2\n');
    const workflowId = (await wf.createWorkflow('Broken')).id;
    const load = await wf.addStep(workflowId, 'import_csv', { param_inputs: { file: fileId } });
    const code = await wf.addStep(workflowId, 'code', {
      inputs: [load.id],
      param_inputs: { code: "if (record.age > 1) throw new Error('too old');\nreturn record;" },
    });
    const run = await finished((await api('POST', `/workflow-execution/${workflowId}/steps/${code.id}/execute`, {})).json().id);
    expect(run.state).toBe('failed');
    expect(run.step_runs[1].error.message).toContain('too old');
    expect(run.step_runs[1].error.message).toContain('line 1');
  });
});

describe('runs: an HTTP call per record, its failures retried alone', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signedInUser>>;
  let wf: ReturnType<typeof workflowClient>;
  let server: http.Server;
  let base: string;
  const calls: string[] = [];
  /** Every call's Idempotency-Key, by record. */
  const keys = new Map<string, Set<string | undefined>>();
  let failing = new Set(['3', '7']);

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const n = new URL(req.url!, 'http://x').searchParams.get('n')!;
      calls.push(n);
      keys.set(n, (keys.get(n) ?? new Set()).add(req.headers['idempotency-key'] as string | undefined));
      if (failing.has(n)) {
        res.writeHead(500).end('down');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ square: Number(n) ** 2 }));
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
  const finished = async (runId: string) => {
    for (let i = 0; i < 1200; i++) {
      const run = (await api('GET', `/workflow-runs/${runId}`)).json();
      if (['succeeded', 'failed', 'cancelled'].includes(run.state)) return run;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('run did not finish');
  };

  it('keeps going past failed calls, then retries only the failed records and pays each answered call once', async () => {
    const workflowId = (await wf.createWorkflow('Squares')).id;
    const table = await wf.addStep(workflowId, 'table_input', {
      param_inputs: { columns: [{ name: 'n', type: 'integer' }], rows: Array.from({ length: 10 }, (_, i) => [i]) },
    });
    const call = await wf.addStep(workflowId, 'http_request', {
      inputs: [table.id],
      param_inputs: { url: `${base}/square?n={{field.n}}`, continue_on_error: true },
    });
    const first = await finished((await api('POST', `/workflow-execution/${workflowId}/steps/${call.id}/execute`, {})).json().id);
    expect(first.state).toBe('succeeded');
    const stepRun = first.step_runs[1];
    expect([stepRun.records_total, stepRun.records_failed]).toEqual([10, 2]);
    const rowsOf = async (datasetId: string) =>
      Object.fromEntries(
        ((await api('GET', `/datasets/${datasetId}/records?page_size=100`)).json().items as { n: number; response_status: number }[]).map((r) => [
          r.n,
          r.response_status,
        ]),
      );
    expect(await rowsOf(stepRun.output_dataset_id)).toMatchObject({ 0: 200, 3: 500, 7: 500, 9: 200 });

    failing = new Set();
    calls.length = 0;
    const retried = await api('POST', `/step-runs/${stepRun.id}/control`, { action: 'retry_failed_records' });
    expect(retried.json().message).toBe('Retrying the failed records.');
    const again = await finished(first.id);
    expect([again.step_runs[1].error, again.step_runs[1]]).toMatchObject([null, { state: 'succeeded', records_failed: 0, records_total: 10 }]);
    // Only the failed records were called again; the others kept their answers.
    expect(calls.sort()).toEqual(['3', '7']);
    expect(await rowsOf(again.step_runs[1].output_dataset_id)).toMatchObject({ 3: 200, 7: 200 });
    // Called again, the failed records carried the keys they had the first time: one key per record, ten in all.
    expect([...keys.values()].map((k) => k.size)).toEqual(Array(10).fill(1));
    expect(new Set([...keys.values()].flatMap((k) => [...k])).size).toBe(10);
    expect([...keys.values()].every((k) => typeof [...k][0] === 'string')).toBe(true);
    const usage = await t.app.db.selectFrom('usage_events').select(['kind', 'quantity']).where('ref_id', '=', stepRun.id).execute();
    // Ten records, each answered (a 500 is an answer too), counted once though two were called twice.
    expect(usage).toHaveLength(10);
  });
});
