import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { createTestApp, onPostgres, type TestApp } from '../../test/test-app';
import {
  buildWorkflow,
  countingService,
  expectEveryCallOnce,
  httpCallsUnderWay,
  startHttpRun,
  expectEveryRecordOnce,
  isAlive,
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
 * Beyond one machine (BullMQ on Redis, on PostgreSQL in the server-postgres project and on one
 * SQLite file shared by the processes otherwise): the API only enqueues, two `npm run worker`
 * processes take the jobs, and the one running the code step is killed with SIGKILL in the middle
 * of it. Its job stalls; once its lock lapses the other worker takes it over (no restart, no
 * recover) and continues after the last finished batch: every record exactly once. The lock is
 * shortened through the workers' environment so this takes seconds.
 * (crash.test.ts is the embedded case.)
 */
const redisUrl = process.env.TEST_REDIS_URL;
const describeWithRedis = redisUrl ? describe : describe.skip;

describeWithRedis(`a worker killed in the middle of a run (${onPostgres() ? 'PostgreSQL' : 'SQLite'}, BullMQ on Redis)`, () => {
  let t: TestApp;
  const workers: ServerProcess[] = [];
  let queuePrefix: string;

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

  /** `npm run worker` on the test's database (PostgreSQL database or SQLite file), storage folder and Redis prefix. */
  function startWorker(extraEnv: Record<string, string> = {}): ServerProcess {
    return startProcess('worker.ts', {
      ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
      LOG_LEVEL: 'info',
      DATA_DIR: t.dataDir,
      REDIS_URL: redisUrl!,
      QUEUE_PREFIX: queuePrefix,
      QUEUE_LOCK_DURATION_MS: '1000',
      QUEUE_STALLED_INTERVAL_MS: '500',
      ...extraEnv,
    });
  }

  /** Two workers started and ready (listed in `workers`, killed after the tests). */
  async function startTwoWorkers(extraEnv: Record<string, string> = {}): Promise<ServerProcess[]> {
    const started = [startWorker(extraEnv), startWorker(extraEnv)];
    workers.push(...started);
    for (const w of started) {
      await waitFor('both workers to be ready', () => {
        if (!isAlive(w)) throw new Error(`a worker exited: ${w.stderr()}`);
        return w.stdout().includes('"msg":"worker ready"') ? true : undefined;
      });
    }
    return started;
  }

  /** The one of `among` running the step run now, as its latest compute job names it (host:pid). */
  async function runningOn(stepRunId: string, auth: Record<string, string>, among: ServerProcess[]): Promise<ServerProcess> {
    const jobs = (await call('GET', `/compute-jobs/step-runs/${stepRunId}/details`, undefined, auth)).body.items as { worker: string }[];
    const found = among.find((w) => jobs.at(-1)?.worker.endsWith(`:${w.pid}`));
    if (!found) throw new Error(`the step runs on ${jobs.at(-1)?.worker}, none of the test's workers`);
    return found;
  }

  beforeAll(async () => {
    t = await createTestApp({ IN_PROCESS_WORKER: 'false', REDIS_URL: redisUrl! });
    // The API's queue prefix (composition.ts): the workers must share it to see its jobs.
    queuePrefix = `${t.appOptions.redisNamespace}:queue`;
  });

  // Each test its own workers: another test's survivor must not take this one's jobs.
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.kill('SIGKILL')));
  });

  afterAll(async () => {
    await t.close();
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${t.appOptions.redisNamespace}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  // Over Jest’s 5 s: two worker processes, one killed, and a lock that must lapse first (9 s on a loaded 2-core machine).
  it('has another worker take the stalled step over and write every record exactly once', async () => {
    const pair = await startTwoWorkers();
    const auth = await signIn(call);
    const workflow = await buildWorkflow(call, auth);
    const { runId, codeRunId } = await startRun(call, auth, workflow);
    await someBatchesDone(call, auth, codeRunId, () => pair.every(isAlive));

    const doomed = await runningOn(codeRunId, auth, pair);
    const survivor = pair.find((w) => w !== doomed)!;
    await doomed.kill('SIGKILL');
    const left = await t.app.db.selectFrom('step_runs').select(['state', 'attempt']).where('id', '=', codeRunId).executeTakeFirstOrThrow();
    expect(left).toEqual({ state: 'running', attempt: 0 });

    expect((await runFinished(call, auth, runId, () => isAlive(survivor))).state).toBe('succeeded');
    await expectEveryRecordOnce({ call, auth, db: t.app.db, runId, codeRunId, killedPid: doomed.pid });
    // The survivor took the job because it stalled, not because anything enqueued it again.
    expect(survivor.stdout()).toContain('job stalled (its worker stopped); it runs again');
  }, 60_000);

  // Over Jest’s 5 s: two worker processes, one killed in the middle of an HTTP step, a lock that must lapse first.
  it('calls again after a kill only the records whose calls were in flight, with the same Idempotency-Key', async () => {
    const RECORDS = 400;
    const CONCURRENCY = 4;
    const service = await countingService(10);
    try {
      const pair = await startTwoWorkers({ HTTP_STEPS_ALLOW_PRIVATE: 'true' });
      const auth = await signIn(call);
      const { runId, httpRunId } = await startHttpRun(call, auth, service, { records: RECORDS, concurrency: CONCURRENCY });
      await httpCallsUnderWay(call, auth, runId, service);
      const doomed = await runningOn(httpRunId, auth, pair);
      await doomed.kill('SIGKILL');
      const calledAtKill = service.calls.size;
      const survivor = pair.find((w) => w !== doomed)!;
      await runFinished(call, auth, runId, () => isAlive(survivor));
      await expectEveryCallOnce({ call, auth, db: t.app.db, runId, httpRunId, service, records: RECORDS, concurrency: CONCURRENCY, calledAtKill });
    } finally {
      service.close();
    }
  }, 60_000);

  // Over Jest’s 5 s: two worker processes and a run of HTTP calls, cancelled from the API process.
  it('stops a cancelled HTTP step in another process at once, aborting the calls in flight', async () => {
    const CONCURRENCY = 4;
    // A service whose answers take 300 ms: the step's calls are nearly always in flight (~13 start
    // a second), so calls counted after the cancel would tell a stop that took seconds to arrive.
    let total = 0;
    let aborted = 0;
    const service = http.createServer((_req, res) => {
      total++;
      const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), 300);
      res.once('close', () => {
        if (!res.writableEnded) {
          aborted++;
          clearTimeout(timer);
        }
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    try {
      await startTwoWorkers({ HTTP_STEPS_ALLOW_PRIVATE: 'true' });
      const auth = await signIn(call);
      const ok = async (method: string, url: string, payload?: object) => {
        const res = await call(method, url, payload, auth);
        if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
        return res.body;
      };
      const workflowId = (await ok('POST', '/workflows', { name: 'Cancelled calls' })).id as string;
      const table = await ok('POST', '/workflow-steps', {
        workflow_id: workflowId,
        step_type: 'table_input',
        inputs: [],
        param_inputs: { columns: [{ name: 'n', type: 'integer' }], rows: Array.from({ length: 900 }, (_, i) => [i]) },
      });
      const port = (service.address() as AddressInfo).port;
      const step = await ok('POST', '/workflow-steps', {
        workflow_id: workflowId,
        step_type: 'http_request',
        inputs: [table.id],
        param_inputs: { url: `http://127.0.0.1:${port}/x?n={{field.n}}`, concurrency: CONCURRENCY },
      });
      const started = await ok('POST', `/workflow-execution/${workflowId}/steps/${step.id}/execute`, {});
      const httpRunId = (started.step_runs as { id: string; step_id: string }[]).find((s) => s.step_id === step.id)!.id;
      await waitFor('the step to make some calls', () => (total >= 20 ? true : undefined));

      const cancelled = await ok('POST', `/workflow-runs/${started.id}/control`, { action: 'cancel' });
      expect(cancelled.state).toBe('cancelled');
      const atCancel = total;
      // The worker ends the step's compute job once the step has stopped.
      await waitFor('the worker to stop the step', async () => {
        const jobs = (await ok('GET', `/compute-jobs/step-runs/${httpRunId}/details`)).items as { state: string }[];
        return jobs.length && jobs.every((j) => j.state !== 'running') ? true : undefined;
      });
      // At most one more round of calls started before the news arrived (Redis pub/sub), and the
      // calls in flight were aborted rather than awaited.
      expect(total - atCancel).toBeLessThanOrEqual(2 * CONCURRENCY);
      expect(aborted).toBeGreaterThanOrEqual(1);
      const afterStop = total;
      expect((await ok('GET', `/workflow-runs/${started.id}`)).state).toBe('cancelled');
      expect(total).toBe(afterStop);
    } finally {
      service.closeAllConnections();
      service.close();
    }
  }, 60_000);
});
