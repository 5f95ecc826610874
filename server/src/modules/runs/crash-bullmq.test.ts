import Redis from 'ioredis';
import { createTestApp, onPostgres, type TestApp } from '../../test/test-app';
import {
  buildWorkflow,
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
} from './crash-support';

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
  function startWorker(): ServerProcess {
    return startProcess('worker.ts', {
      ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
      LOG_LEVEL: 'info',
      DATA_DIR: t.dataDir,
      REDIS_URL: redisUrl!,
      QUEUE_PREFIX: queuePrefix,
      QUEUE_LOCK_DURATION_MS: '1000',
      QUEUE_STALLED_INTERVAL_MS: '500',
    });
  }

  beforeAll(async () => {
    t = await createTestApp({ IN_PROCESS_WORKER: 'false', REDIS_URL: redisUrl! });
    // The API's queue prefix (plugins/queue.ts): the workers must share it to see its jobs.
    queuePrefix = `${t.appOptions.redisNamespace}:queue`;
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill('SIGKILL')));
    await t.close();
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${t.appOptions.redisNamespace}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  // Over Jest’s 5 s: two worker processes, one killed, and a lock that must lapse first (9 s on a loaded 2-core machine).
  it('has another worker take the stalled step over and write every record exactly once', async () => {
    workers.push(startWorker(), startWorker());
    for (const w of workers) {
      await waitFor('both workers to be ready', () => {
        if (!isAlive(w)) throw new Error(`a worker exited: ${w.stderr()}`);
        return w.stdout().includes('"msg":"worker ready"') ? true : undefined;
      });
    }
    const auth = await signIn(call);
    const workflow = await buildWorkflow(call, auth);
    const { runId, codeRunId } = await startRun(call, auth, workflow);
    await someBatchesDone(call, auth, codeRunId, () => workers.every(isAlive));

    // The worker running the code step is the one its compute job names (host:pid).
    const [job] = (await call('GET', `/compute-jobs/step-runs/${codeRunId}/details`, undefined, auth)).body.items as { worker: string }[];
    const doomed = workers.find((w) => job.worker.endsWith(`:${w.pid}`));
    if (!doomed) throw new Error(`the code step runs on ${job.worker}, none of the test's workers`);
    const survivor = workers.find((w) => w !== doomed)!;
    await doomed.kill('SIGKILL');
    const left = await t.app.db.selectFrom('step_runs').select(['state', 'attempt']).where('id', '=', codeRunId).executeTakeFirstOrThrow();
    expect(left).toEqual({ state: 'running', attempt: 0 });

    expect((await runFinished(call, auth, runId, () => isAlive(survivor))).state).toBe('succeeded');
    await expectEveryRecordOnce({ call, auth, db: t.app.db, runId, codeRunId, killedPid: doomed.pid });
    // The survivor took the job because it stalled, not because anything enqueued it again.
    expect(survivor.stdout()).toContain('job stalled (its worker stopped); it runs again');
  }, 60_000);
});
