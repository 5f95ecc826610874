import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../db/database';
import { createTestApp, onPostgres, type TestApp } from '../../test/test-app';
import {
  buildWorkflow,
  countingService,
  expectEveryCallOnce,
  expectEveryRecordOnce,
  httpCallsUnderWay,
  startHttpRun,
  freePort,
  httpCall,
  isAlive,
  RECORDS,
  recordsOf,
  runFinished,
  signIn,
  someBatchesDone,
  startProcess,
  startRun,
  waitFor,
  type Call,
  type ServerProcess,
} from '../../test/crash-support';

/**
 * The embedded install (`npm start`: one process, SQLite, in-process queue) killed with SIGKILL in
 * the middle of a per-record step: the next start on the same data folder finds the run unfinished,
 * takes it up again by itself, and the output holds every record exactly once.
 * (crash-bullmq.test.ts is the same on PostgreSQL + Redis with separate workers.)
 */
const describeEmbedded = onPostgres() ? describe.skip : describe;

describeEmbedded('a server killed in the middle of a run (embedded: SQLite, in-process queue)', () => {
  let dataDir: string;
  let server: ServerProcess | null = null;
  let db: DatabaseHandle | null = null;
  let port = 0;
  const call = httpCall(() => `http://127.0.0.1:${port}`);

  async function startServer(): Promise<ServerProcess> {
    port = await freePort();
    const started = startProcess('server.ts', {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      IN_PROCESS_WORKER: 'true',
      WEB_DIR: path.join(dataDir, 'no-web-app'),
      // The HTTP step's test calls a service on 127.0.0.1.
      HTTP_STEPS_ALLOW_PRIVATE: 'true',
    });
    await waitFor(`the server to listen${started.stderr() ? `: ${started.stderr()}` : ''}`, async () => {
      if (!isAlive(started)) throw new Error(`the server exited: ${started.stderr()}`);
      return fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`).then(
        (res) => (res.ok ? true : undefined),
        () => undefined,
      );
    });
    return started;
  }

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-crash-'));
  });

  // Each test's last server goes with it: left running, it would take up the next test's runs
  // from the same database (and outlive the suite: only the newest was killed at the end).
  afterEach(async () => {
    await server?.kill('SIGKILL');
    server = null;
  });

  afterAll(async () => {
    await db?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Over Jest’s 5 s: starts a real server process, kills it mid-run and starts another (9 s on a loaded 2-core machine).
  it('takes the run up again after a restart and writes every record exactly once', async () => {
    server = await startServer();
    const auth = await signIn(call);
    const workflow = await buildWorkflow(call, auth);
    const { runId, codeRunId } = await startRun(call, auth, workflow);
    const first = server;
    await someBatchesDone(call, auth, codeRunId, () => isAlive(first));

    await first.kill('SIGKILL');
    // What the dead process left: the step run still `running`, its compute job too.
    db = openDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'stepwise.db') });
    const left = await db.db.selectFrom('step_runs').select(['state', 'attempt']).where('id', '=', codeRunId).executeTakeFirstOrThrow();
    expect(left).toEqual({ state: 'running', attempt: 0 });
    const leftJobs = await db.db.selectFrom('compute_jobs').select(['state', 'worker']).where('step_run_id', '=', codeRunId).execute();
    expect(leftJobs).toEqual([{ state: 'running', worker: expect.stringMatching(new RegExp(`:${first.pid}$`)) }]);

    server = await startServer();
    const second = server;
    expect((await runFinished(call, auth, runId, () => isAlive(second))).state).toBe('succeeded');
    await expectEveryRecordOnce({ call, auth, db: db.db, runId, codeRunId, killedPid: first.pid });
  }, 60_000);

  // Over Jest’s 5 s: a real server process killed in the middle of an HTTP step and started again.
  it('calls again after the restart only the records whose calls were in flight', async () => {
    const RECORDS = 400;
    const CONCURRENCY = 4;
    const service = await countingService(10);
    try {
      server = await startServer();
      const auth = await signIn(call);
      const { runId, httpRunId } = await startHttpRun(call, auth, service, { records: RECORDS, concurrency: CONCURRENCY });
      await httpCallsUnderWay(call, auth, runId, service);
      await server.kill('SIGKILL');
      const calledAtKill = service.calls.size;
      server = await startServer();
      const restarted = server;
      await runFinished(call, auth, runId, () => isAlive(restarted));
      db ??= openDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'stepwise.db') });
      await expectEveryCallOnce({ call, auth, db: db.db, runId, httpRunId, service, records: RECORDS, concurrency: CONCURRENCY, calledAtKill });
    } finally {
      service.close();
    }
  }, 60_000);
});

describeEmbedded('a crash between storing a per-record step’s dataset and registering it', () => {
  let t: TestApp;
  const call: Call = async (method, url, payload, headers = {}) => {
    const raw = payload && 'raw' in payload ? (payload as { raw: Buffer; contentType: string }) : null;
    const res = await t.app.inject({
      method: method as 'GET',
      url: `/api/v1${url}`,
      headers: { ...headers, ...(raw ? { 'content-type': raw.contentType } : {}) },
      payload: raw ? raw.raw : payload,
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };

  beforeAll(async () => {
    t = await createTestApp({ IN_PROCESS_WORKER: 'true' });
  });
  afterAll(() => t.close());

  // Over Jest’s 5 s: a real server process killed at a chosen moment and restarted (3 s on a loaded 2-core machine).
  it('takes the stored dataset on the next try, with its name and lineage, instead of failing', async () => {
    const auth = await signIn(call);
    const workflow = await buildWorkflow(call, auth, { batchBusyMs: 0 });
    // The process "dies" right after the code step's Parquet file is stored: its row never gets in.
    const codeRuns = sql`SELECT id FROM step_runs WHERE step_id = ${sql.lit(workflow.codeStepId)}`;
    await sql`CREATE TRIGGER lost_registration BEFORE INSERT ON datasets WHEN NEW.step_run_id IN (${codeRuns}) BEGIN SELECT RAISE(ABORT, 'the process died here'); END`.execute(
      t.app.db,
    );
    const { runId, codeRunId } = await startRun(call, auth, workflow);
    const broken = await runFinished(call, auth, runId, () => true);
    expect(broken.step_runs.map((s: { state: string }) => s.state)).toEqual(['succeeded', 'failed', 'skipped']);
    await sql`DROP TRIGGER lost_registration`.execute(t.app.db);
    // What a SIGKILL at that moment leaves: the run and the step run `running`, what follows queued.
    await t.app.db.updateTable('workflow_runs').set({ state: 'running', ended_at: null, error: null }).where('id', '=', runId).execute();
    await t.app.db.updateTable('step_runs').set({ state: 'running', ended_at: null, error: null }).where('id', '=', codeRunId).execute();
    await t.app.db.updateTable('step_runs').set({ state: 'queued', ended_at: null }).where('run_id', '=', runId).where('state', '=', 'skipped').execute();

    expect(await t.app.runs.recover()).toBe(2);
    const run = await runFinished(call, auth, runId, () => true);
    expect(run.step_runs.map((s: { state: string }) => s.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const [imported, coded] = run.step_runs;
    const output = await recordsOf(call, auth, coded.output_dataset_id);
    expect(output).toHaveLength(RECORDS);
    expect(new Set(output.map((r) => r._id)).size).toBe(RECORDS);
    expect(output.reduce((sum, r) => sum + Number(r.doubled), 0)).toBe(RECORDS * (RECORDS + 1));
    const dataset = (await call('GET', `/datasets/${coded.output_dataset_id}`, undefined, auth)).body;
    expect(dataset).toMatchObject({ name: coded.step_name, run_id: runId, step_id: workflow.codeStepId, parents: [{ id: imported.output_dataset_id }] });
  }, 30_000);
});
