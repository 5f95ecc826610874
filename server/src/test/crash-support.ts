import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import type { Db } from '../db/database';
import { CODE_BATCH_SIZE } from '../engine/step-types/code';
import { HTTP_BATCH_SIZE } from '../engine/step-types/http-request';

/**
 * What the crash tests (crash.test.ts: embedded; crash-bullmq.test.ts: PostgreSQL + Redis) share:
 * real server and worker processes to kill, the API as a user calls it, one workflow
 * (CSV import → code → filter) and the checks that every record came out exactly once.
 */

export const RECORDS = 5000;
/** Batches of the code step (its runner's fixed batch size): enough to kill it between two of them. */
export const BATCHES = Math.ceil(RECORDS / CODE_BATCH_SIZE);
/** Each batch busy-waits this long, so the step takes a few seconds and can be killed in the middle. */
const BATCH_BUSY_MS = 250;

const REPO_ROOT = path.resolve(__dirname, '../../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** Waits for `probe` to answer something other than undefined, polling; fails after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 40_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await sleep(50);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A server (`server.ts`) or worker (`worker.ts`) process, run as `npm start` / `npm run worker` would run it. */
export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  /** What it wrote to stderr, for the failure message when it dies unexpectedly. */
  stderr(): string;
  /** What it wrote to stdout (pino's JSON lines). */
  stdout(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export function startProcess(entry: 'server.ts' | 'worker.ts', env: Record<string, string>): ServerProcess {
  const base = { ...process.env };
  // The test runner's own database and queue settings must not leak into the child's.
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'QUEUE_BACKEND', 'QUEUE_PREFIX', 'PORT', 'DATA_DIR']) delete base[name];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server/src', entry)], {
    cwd: REPO_ROOT,
    env: { ...base, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout = (stdout + chunk.toString()).slice(-100_000);
  });
  return {
    child,
    pid: child.pid!,
    stderr: () => stderr,
    stdout: () => stdout,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    },
  };
}

export const isAlive = (p: ServerProcess) => p.child.exitCode === null && p.child.signalCode === null;

// ---- the API as a user calls it ----

export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One HTTP call of the API: over the network to a child process, or `inject` into an app in the test. */
export type Call = (method: string, url: string, payload?: object | { raw: Buffer; contentType: string }, headers?: Record<string, string>) => Promise<Answer>;

export function httpCall(baseUrl: () => string): Call {
  return async (method, url, payload, headers = {}) => {
    const raw = payload && 'raw' in payload ? (payload as { raw: Buffer; contentType: string }) : null;
    const res = await fetch(`${baseUrl()}/api/v1${url}`, {
      method,
      headers: { ...headers, ...(raw ? { 'content-type': raw.contentType } : payload ? { 'content-type': 'application/json' } : {}) },
      body: raw ? new Uint8Array(raw.raw) : payload ? JSON.stringify(payload) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

export async function signIn(call: Call): Promise<Record<string, string>> {
  const email = `crash-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  const signup = await call('POST', '/auth/signup', { email, password, name: 'Ada Lovelace' });
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)}`);
  const form = new URLSearchParams({ username: email, password }).toString();
  const login = await call('POST', '/auth/login', { raw: Buffer.from(form), contentType: 'application/x-www-form-urlencoded' });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  return { authorization: `Bearer ${login.body.access_token}` };
}

function multipart(name: string, data: string) {
  const boundary = `----stepwise${randomBytes(8).toString('hex')}`;
  const raw = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(data),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { raw, contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface CrashWorkflow {
  workflowId: string;
  importStepId: string;
  codeStepId: string;
  filterStepId: string;
}

/** Uploads numbers.csv (n = 1…RECORDS) and builds: import it → code (doubles n, slowly) → keep doubled > RECORDS. */
export async function buildWorkflow(call: Call, auth: Record<string, string>, options: { batchBusyMs?: number } = {}): Promise<CrashWorkflow> {
  const ok = async (method: string, url: string, payload?: object | { raw: Buffer; contentType: string }) => {
    const res = await call(method, url, payload, auth);
    if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const csv = `n,label\n${Array.from({ length: RECORDS }, (_, i) => `${i + 1},row ${i + 1}`).join('\n')}\n`;
  const file = (await ok('POST', '/files/', multipart('numbers.csv', csv))).items[0];
  const workflowId = (await ok('POST', '/workflows', { name: 'Crash test' })).id as string;
  const addStep = (step_type: string, inputs: string[], param_inputs: object) =>
    ok('POST', '/workflow-steps', { workflow_id: workflowId, step_type, inputs, param_inputs });
  const importStep = await addStep('import_csv', [], { file: file.id });
  const code = [
    `const until = Date.now() + ${options.batchBusyMs ?? BATCH_BUSY_MS};`,
    'while (Date.now() < until) {}',
    'return records.map((r) => ({ ...r, doubled: Number(r.n) * 2 }));',
  ].join('\n');
  const codeStep = await addStep('code', [importStep.id], { code, mode: 'per_batch', timeout_ms: 10_000 });
  const filterStep = await addStep('filter', [codeStep.id], { condition: `doubled > ${RECORDS}` });
  return { workflowId, importStepId: importStep.id, codeStepId: codeStep.id, filterStepId: filterStep.id };
}

/** Starts the whole workflow; answers the run id and the code step's step run id. */
export async function startRun(call: Call, auth: Record<string, string>, wf: CrashWorkflow): Promise<{ runId: string; codeRunId: string }> {
  const res = await call('POST', `/workflow-execution/${wf.workflowId}/steps/${wf.filterStepId}/execute?mode=all`, {}, auth);
  if (res.status !== 202) throw new Error(`execute: ${res.status} ${JSON.stringify(res.body)}`);
  const codeRun = (res.body.step_runs as { id: string; step_id: string }[]).find((s) => s.step_id === wf.codeStepId)!;
  return { runId: res.body.id, codeRunId: codeRun.id };
}

/** Waits until the code step has stored at least two batches and is still running: the moment to kill. */
export function someBatchesDone(call: Call, auth: Record<string, string>, codeRunId: string, alive: () => boolean) {
  return waitFor('the code step to finish some batches', async () => {
    if (!alive()) throw new Error('the process running the step died before it was killed');
    const progress = (await call('GET', `/step-runs/${codeRunId}/progress`, undefined, auth)).body;
    if (progress.state !== 'running')
      return progress.state === 'queued' ? undefined : Promise.reject(new Error(`the code step is ${progress.state} before the kill`));
    return progress.records_done >= 2 * CODE_BATCH_SIZE ? progress : undefined;
  });
}

export async function runFinished(call: Call, auth: Record<string, string>, runId: string, alive: () => boolean) {
  return waitFor('the run to finish', async () => {
    if (!alive()) throw new Error('the process that should finish the run died');
    const run = (await call('GET', `/workflow-runs/${runId}`, undefined, auth)).body;
    return ['succeeded', 'failed', 'cancelled'].includes(run.state) ? run : undefined;
  });
}

/** Every record of a dataset, in its order, through the records API. */
export async function recordsOf(call: Call, auth: Record<string, string>, datasetId: string): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const res = await call('GET', `/datasets/${datasetId}/records?page=${page}&page_size=1000`, undefined, auth);
    if (res.status !== 200) throw new Error(`records: ${res.status} ${JSON.stringify(res.body)}`);
    all.push(...res.body.items);
    if (res.body.items.length < 1000) return all;
  }
}

/**
 * The run after the crash, as its user sees it and as the database keeps it: every record once in
 * the code step's output (count, ids, checksum), the filter downstream right, each batch finished
 * once, the killed process's compute job failed as lost and the next one resuming after the
 * batches already done.
 */
export async function expectEveryRecordOnce(a: { call: Call; auth: Record<string, string>; db: Db; runId: string; codeRunId: string; killedPid: number }) {
  const { call, auth, db, codeRunId } = a;
  const run = (await call('GET', `/workflow-runs/${a.runId}`, undefined, auth)).body;
  expect(run.state).toBe('succeeded');
  const [imported, coded, filtered] = run.step_runs as { id: string; state: string; attempt: number; output_dataset_id: string }[];
  expect(coded.id).toBe(codeRunId);
  expect(run.step_runs.map((s: { state: string }) => s.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  // A crash is not a new attempt: the same attempt continues where it stopped.
  expect(coded.attempt).toBe(0);

  const input = await recordsOf(call, auth, imported.output_dataset_id);
  const output = await recordsOf(call, auth, coded.output_dataset_id);
  expect(input).toHaveLength(RECORDS);
  expect(output).toHaveLength(RECORDS);
  const ids = output.map((r) => String(r._id));
  expect(new Set(ids).size).toBe(RECORDS);
  expect([...ids].sort()).toEqual(input.map((r) => String(r._id)).sort());
  // In input order, each n once, each doubled: the same checksums as a run that never crashed.
  expect(output.map((r) => Number(r.n))).toEqual(Array.from({ length: RECORDS }, (_, i) => i + 1));
  expect(
    md5(
      output
        .map((r) => `${r._id}:${r.n}:${r.doubled}`)
        .sort()
        .join('\n'),
    ),
  ).toBe(
    md5(
      input
        .map((r) => `${r._id}:${r.n}:${Number(r.n) * 2}`)
        .sort()
        .join('\n'),
    ),
  );
  expect(output.reduce((sum, r) => sum + Number(r.doubled), 0)).toBe(RECORDS * (RECORDS + 1));
  const kept = await recordsOf(call, auth, filtered.output_dataset_id);
  expect(kept).toHaveLength(RECORDS / 2);
  expect(kept.reduce((sum, r) => sum + Number(r.n), 0)).toBe(((RECORDS / 2) * (RECORDS / 2 + 1 + RECORDS)) / 2);

  // Each batch was finished (stored and checkpointed) once: none redone by the process that took over.
  const batches = await db.selectFrom('step_run_batches').selectAll().where('step_run_id', '=', codeRunId).orderBy('batch_no').execute();
  expect(batches.map((b) => [Number(b.batch_no), Number(b.first_record), Number(b.record_count), b.state, Number(b.attempt)])).toEqual(
    Array.from({ length: BATCHES }, (_, no) => [no, no * CODE_BATCH_SIZE, CODE_BATCH_SIZE, 'succeeded', 1]),
  );

  const jobs = (await call('GET', `/compute-jobs/step-runs/${codeRunId}/details`, undefined, auth)).body.items as {
    state: string;
    worker: string;
    attempt: number;
    error: { message: string } | null;
    log_lines: string[];
  }[];
  expect(jobs).toHaveLength(2);
  const [lost, resumed] = jobs;
  expect(lost.worker.endsWith(`:${a.killedPid}`)).toBe(true);
  expect(lost).toMatchObject({
    state: 'failed',
    attempt: 1,
    error: { message: 'The worker running this step stopped (it was killed or lost); another one took the step over, keeping the batches already finished.' },
  });
  expect(resumed).toMatchObject({ state: 'succeeded', attempt: 1, error: null });
  expect(resumed.worker).not.toBe(lost.worker);
  const resumedAfter = resumed.log_lines.map((l) => /Resuming after (\d+) finished batch\(es\), (\d+) record\(s\)/.exec(l)).find(Boolean);
  expect(resumedAfter).toBeTruthy();
  const doneBefore = Number(resumedAfter![1]);
  expect(doneBefore).toBeGreaterThanOrEqual(2);
  expect(doneBefore).toBeLessThan(BATCHES);
  expect(Number(resumedAfter![2])).toBe(doneBefore * CODE_BATCH_SIZE);
  expect(resumed.log_lines.some((l) => l.includes(`Done: ${RECORDS} record(s)`))).toBe(true);
}

// ---- an HTTP step whose calls are counted ----

/** A local service the HTTP step calls: `/double?n=…` answers `{double}` after `delayMs`. */
export interface CountingService {
  base: string;
  /** The Idempotency-Keys each record `n` was called with, one per call. */
  calls: Map<string, string[]>;
  total(): number;
  close(): void;
}

export async function countingService(delayMs: number): Promise<CountingService> {
  const calls = new Map<string, string[]>();
  let total = 0;
  const server = http.createServer((req, res) => {
    const n = new URL(req.url!, 'http://x').searchParams.get('n')!;
    calls.set(n, [...(calls.get(n) ?? []), String(req.headers['idempotency-key'])]);
    total++;
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ double: Number(n) * 2 })), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    calls,
    total: () => total,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Builds a typed-in table (n = 0…records − 1) → HTTP request to `service` at `concurrency`, and runs it. */
export async function startHttpRun(
  call: Call,
  auth: Record<string, string>,
  service: CountingService,
  options: { records: number; concurrency: number },
): Promise<{ runId: string; httpRunId: string }> {
  const ok = async (method: string, url: string, payload?: object) => {
    const res = await call(method, url, payload, auth);
    if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const workflowId = (await ok('POST', '/workflows', { name: 'Calls once' })).id as string;
  const addStep = (step_type: string, inputs: string[], param_inputs: object) =>
    ok('POST', '/workflow-steps', { workflow_id: workflowId, step_type, inputs, param_inputs });
  const table = await addStep('table_input', [], {
    columns: [{ name: 'n', type: 'integer' }],
    rows: Array.from({ length: options.records }, (_, i) => [i]),
  });
  const step = await addStep('http_request', [table.id], { url: `${service.base}/double?n={{field.n}}`, concurrency: options.concurrency });
  const started = await ok('POST', `/workflow-execution/${workflowId}/steps/${step.id}/execute`, {});
  return { runId: started.id, httpRunId: (started.step_runs as { id: string; step_id: string }[]).find((s) => s.step_id === step.id)!.id };
}

/** The moment to kill: two batches stored and the third's calls under way (the run still going). */
export const HTTP_KILL_AT = 2 * HTTP_BATCH_SIZE + 30;

export function httpCallsUnderWay(call: Call, auth: Record<string, string>, runId: string, service: CountingService) {
  return waitFor('the step to make some of its calls', async () => {
    if (service.total() >= HTTP_KILL_AT) return true;
    const run = (await call('GET', `/workflow-runs/${runId}`, undefined, auth)).body;
    if (run.state !== 'running' && run.state !== 'queued')
      throw new Error(`the run is ${run.state} before the kill: ${JSON.stringify(run.state_reason ?? run.error)}`);
    return undefined;
  });
}

/**
 * After a run killed in the middle of its HTTP step: every record called, and again only those in
 * flight at the kill (at most the step's concurrency), each with the key of its first call; every
 * record once in the output, with its answer; nothing checkpointed left.
 */
export async function expectEveryCallOnce(a: {
  call: Call;
  auth: Record<string, string>;
  db: Db;
  runId: string;
  httpRunId: string;
  service: CountingService;
  records: number;
  concurrency: number;
  calledAtKill: number;
}) {
  const run = (await a.call('GET', `/workflow-runs/${a.runId}`, undefined, a.auth)).body;
  expect(run.state).toBe('succeeded');
  expect(a.calledAtKill).toBeGreaterThan(2 * HTTP_BATCH_SIZE + a.concurrency);
  expect(a.service.calls.size).toBe(a.records);
  const again = [...a.service.calls.values()].filter((keys) => keys.length > 1);
  expect(again.length).toBeLessThanOrEqual(a.concurrency);
  // A repeated call carries the key of the first, so a service that honours it does the work once.
  for (const keys of again) expect(new Set(keys).size).toBe(1);
  const httpRun = (run.step_runs as { id: string; output_dataset_id: string }[]).find((s) => s.id === a.httpRunId)!;
  const output = await recordsOf(a.call, a.auth, httpRun.output_dataset_id);
  expect(output).toHaveLength(a.records);
  expect(new Set(output.map((r) => r._id)).size).toBe(a.records);
  expect(output.every((r) => (r.response as { double: number }).double === Number(r.n) * 2)).toBe(true);
  expect(await a.db.selectFrom('step_run_calls').select('call_key').where('step_run_id', '=', a.httpRunId).execute()).toEqual([]);
}
