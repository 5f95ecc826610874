import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { FastifyInstance as App } from 'fastify';
import { buildApp } from '../server/src/app';
import { COUNT_FILE_ROWS_JOB } from '../server/src/modules/files/file-row-counts';
import { queueDrained, waitUntil } from '../server/src/test/wait';
import { loadConfig } from '../server/src/config/config';
import { ApiClient } from './api-client';
import { withPg } from './pg';

/**
 * The run engine's scenario of `npm run bench` (BENCH_RUNS=1, or `only` for it alone). Unlike the
 * request cases, the app runs in this process (with its in-process worker), because two figures
 * are about this process: its peak RSS while a run works, and raw DuckDB doing the same query in
 * the same process as the baseline of the 5-step workflow. Everything is driven over loopback HTTP
 * as a user would: files uploaded through POST /files/, steps added through /workflow-steps, runs
 * started through /workflow-execution, their end learnt from the run's server-sent events.
 *
 * On SQLite with the in-process queue, then on PostgreSQL (BENCH_DATABASE_URL) with BullMQ when
 * BENCH_REDIS_URL is set too.
 */
const SIZES = (process.env.BENCH_RUNS_ROWS ?? '100000,1000000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0);
const REPEAT = Math.max(1, Number(process.env.BENCH_RUNS_REPEAT ?? 2));
const SMALL_RUNS = Math.max(5, Number(process.env.BENCH_RUNS_SMALL ?? 50));
const CONCURRENT = Math.max(1, Number(process.env.BENCH_RUNS_CONCURRENT ?? 20));
const CODE_ROWS = Number(process.env.BENCH_RUNS_CODE_ROWS ?? 100_000);
const PAGE_REQUESTS = Number(process.env.BENCH_RUNS_PAGE_REQUESTS ?? 300);
/** Runs of the 1M-row workflow by the compiled server, each followed by browsing its data: peak and resting RSS per run. */
const COMPILED_RUNS = Math.max(1, Number(process.env.BENCH_RUNS_COMPILED ?? 10));
/** BENCH_RUNS_BROWSE=0: the compiled server's runs are not browsed after (the run's own peak alone). */
const BROWSE = process.env.BENCH_RUNS_BROWSE !== '0';
/** What a process rests at is read this long after its last request. */
const REST_MS = 2000;
const PG_URL = process.env.BENCH_DATABASE_URL || null;
const REDIS_URL = process.env.BENCH_REDIS_URL || null;
const SAMPLE_MS = 50;

const log = (message: string) => process.stderr.write(`${message}\n`);
const MiB = 2 ** 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The process's peak RSS while `work` runs, sampled every 50 ms (and at both ends). */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peak: number; before: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), SAMPLE_MS);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peak, before };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The orders CSV: id, customer, country (one of 50), amount, quantity, date; written once per size
 * by a stream in this process (not by DuckDB, whose buffers would stay in the RSS measured later).
 */
export async function generateCsv(dir: string, rows: number): Promise<string> {
  const file = path.join(dir, `orders-${rows}.csv`);
  if (fs.existsSync(file)) return file;
  const out = fs.createWriteStream(file);
  const mix = (i: number, k: number) => Math.imul(i ^ k, 2654435761) >>> 0;
  const day = (i: number) => new Date(Date.UTC(2024, 0, 1 + (i % 365))).toISOString().slice(0, 10);
  out.write('id,customer,country,amount,quantity,ordered_on\n');
  for (let start = 0; start < rows; start += 10_000) {
    let chunk = '';
    for (let i = start; i < Math.min(rows, start + 10_000); i++) {
      chunk += `${i},customer ${i % 50_000},country ${mix(i, 17) % 50},${((mix(i, 31) % 100_000) / 100).toFixed(2)},${1 + (mix(i, 7) % 9)},${day(i)}\n`;
    }
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return file;
}

const FILTER = 'amount > 10';
const FORMULA = 'amount * quantity';

/** The 5-step query as one DuckDB statement, what the workflow computes step by step. */
function rawQuery(input: string, output: string): string {
  const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
  return `
    COPY (
      SELECT country, sum(line_total) AS total, count(*) AS orders
      FROM (SELECT *, ${FORMULA} AS line_total FROM read_csv(${q(input)}) WHERE ${FILTER})
      GROUP BY country
      ORDER BY total DESC
    ) TO ${q(output)} (HEADER, DELIMITER ',')`;
}

export class Client extends ApiClient {
  async upload(file: string, name: string): Promise<string> {
    const form = new FormData();
    form.append('file', await fs.openAsBlob(file), name);
    const res = await fetch(`${this.base}/api/v1/files/`, { method: 'POST', headers: this.auth, body: form });
    if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { items: { id: string }[] }).items[0].id;
  }

  async workflow(name: string, steps: { type: string; params: object }[]): Promise<{ id: string; steps: string[] }> {
    const workflow = await this.call<{ id: string }>('POST', '/workflows', { name });
    const ids: string[] = [];
    for (const step of steps) {
      const created = await this.call<{ id: string }>('POST', '/workflow-steps', {
        workflow_id: workflow.id,
        step_type: step.type,
        inputs: ids.slice(-1),
        param_inputs: step.params,
      });
      ids.push(created.id);
    }
    return { id: workflow.id, steps: ids };
  }

  /** Starts a run of everything up to `stepId` and waits for its end on the events stream; answers the run and the wall time. */
  async run(workflowId: string, stepId: string): Promise<{ run: RunOut; ms: number }> {
    const start = performance.now();
    const started = await this.call<{ id: string }>('POST', `/workflow-execution/${workflowId}/steps/${stepId}/execute?mode=all`, {});
    const end = await this.waitForEnd(started.id);
    const ms = performance.now() - start;
    if (end !== 'run_succeeded')
      throw new Error(`run ${started.id} ended with ${end}: ${JSON.stringify(await this.call('GET', `/workflow-runs/${started.id}`))}`);
    return { run: await this.call<RunOut>('GET', `/workflow-runs/${started.id}`), ms };
  }

  /**
   * Reads the run's server-sent events until the run ends (no polling delay). A stream that closes
   * without the run's end is opened again after the last event id, as EventSource does; those
   * reconnections are counted and reported (each is a stream the server ended too early).
   */
  private async waitForEnd(runId: string): Promise<string> {
    let lastId = 0;
    for (let attempt = 0; attempt < 50; attempt++) {
      if (attempt > 0) streamReconnects++;
      const res = await fetch(`${this.base}/api/v1/workflow-runs/${runId}/events`, {
        headers: { ...this.auth, ...(lastId ? { 'last-event-id': String(lastId) } : {}) },
      });
      if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
      const decoder = new TextDecoder();
      let text = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        const end = /^event: (run_succeeded|run_failed|run_cancelled)$/m.exec(text);
        if (end) return end[1];
      }
      for (const m of text.matchAll(/^id: (\d+)$/gm)) lastId = Math.max(lastId, Number(m[1]));
    }
    throw new Error(`the events of run ${runId} never told the run's end`);
  }
}

/** Event streams that closed before their run's end and were opened again (see waitForEnd). */
let streamReconnects = 0;

export interface RunOut {
  id: string;
  started_at?: string;
  created_at: string;
  ended_at: string | null;
  step_runs: {
    step_id: string;
    state: string;
    started_at: string | null;
    ended_at: string | null;
    output_dataset_id: string | null;
    records_total: number | null;
  }[];
}

export const stepMs = (s: RunOut['step_runs'][number]) => (s.started_at && s.ended_at ? Date.parse(s.ended_at) - Date.parse(s.started_at) : NaN);

export interface Backend {
  label: string;
  databaseUrl: string | null;
  redisUrl: string | null;
}

export async function withApp<T>(
  backend: Backend,
  work: (client: Client, dataDir: string, app: App) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-runs-'));
  const suffix = randomBytes(4).toString('hex');
  const pgSchema = backend.databaseUrl ? `bench_runs_${suffix}` : undefined;
  if (backend.databaseUrl) await withPg(backend.databaseUrl, (c) => c.query(`create schema ${pgSchema}`));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    WEB_DIR: path.join(dataDir, 'no-web-app'),
    DATABASE_URL: backend.databaseUrl ?? '',
    REDIS_URL: backend.redisUrl ?? '',
    QUEUE_BACKEND: backend.redisUrl ? 'bullmq' : 'memory',
    QUEUE_PREFIX: `bench-runs-${suffix}`,
    LOG_LEVEL: 'warn',
    IN_PROCESS_WORKER: 'true',
    // Billing on, as a hosted install runs it (billing on needs a way to buy credits: the test checkout).
    BILLING_ENABLED: 'true',
    STRIPE_TEST_CHECKOUT: 'true',
    LOGIN_RATE_LIMIT_MAX: '1000000000',
    LOGIN_RATE_LIMIT_PER_ADDRESS_MAX: '1000000000',
    ...env,
  });
  const app = await buildApp({ config, pgSchema, redisNamespace: `bench-runs-${suffix}` });
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    return await work(await Client.signUp(url, 'runs'), dataDir, app);
  } finally {
    await app.close();
    if (backend.databaseUrl) await withPg(backend.databaseUrl, (c) => c.query(`drop schema ${pgSchema} cascade`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const fiveSteps = (fileId: string) => [
  { type: 'import_csv', params: { file: fileId } },
  { type: 'filter', params: { condition: FILTER } },
  { type: 'add_column', params: { new_column: 'line_total', expression: FORMULA } },
  {
    type: 'aggregate',
    params: {
      group_by: ['country'],
      aggregations: [
        { column: 'line_total', function: 'sum', as: 'total' },
        { column: '*', function: 'count', as: 'orders' },
      ],
    },
  },
  { type: 'sort', params: { columns: ['total'], direction: 'descending' } },
  { type: 'export_csv', params: { file_name: 'totals.csv' } },
];
const STEP_NAMES = ['import CSV', 'filter', 'formula', 'group by', 'sort', 'export CSV'];

interface PipelineFigures {
  rows: number;
  engineMs: number[];
  rawMs: number[];
  peakRss: number;
  rssBefore: number;
  rawPeakRss: number;
  /** Per step (best run): ms. */
  steps: number[];
  /** The import step's output of the last run: a dataset of `rows` records. */
  importedDataset: string;
  /** The sort step's output of the best run (50 rows, deferred): opened for the first time by recordsPages. */
  sortedDataset: string;
}

/**
 * Waits until reading the ended run has counted every output (and written the small ones, in the
 * background, just after): work the server does once a run is read, which would otherwise run
 * beside the next measured run.
 */
async function settled(client: Client, app: App, runId: string): Promise<void> {
  await waitUntil(
    'the outputs of the run to be counted',
    async () => (await client.call<RunOut>('GET', `/workflow-runs/${runId}`)).step_runs.every((s) => !s.output_dataset_id || s.records_total !== null),
    30_000,
  );
  await app.datasets.files.settled();
}

/**
 * Waits until the upload's records are counted (the count-file-rows job, DuckDB over the whole
 * file): raw DuckDB gets no such job beside its query, so the engine's run starts after it too.
 */
export function uploadCounted(app: App): Promise<void> {
  return queueDrained(app.jobs, COUNT_FILE_ROWS_JOB, 60_000);
}

/** The 5-step workflow over `rows` rows, REPEAT times (a fresh upload each, so no step is reused from the cache), then raw DuckDB. */
async function pipeline(client: Client, app: App, csv: string, rows: number, dataDir: string): Promise<PipelineFigures> {
  const engineMs: number[] = [];
  let peakRss = 0;
  let rssBefore = Infinity;
  let best: RunOut | null = null;
  let bestMs = Infinity;
  for (let r = 0; r < REPEAT; r++) {
    const fileId = await client.upload(csv, `orders-${rows}-${r}.csv`);
    const wf = await client.workflow(`Orders ${rows} #${r}`, fiveSteps(fileId));
    await uploadCounted(app);
    const { result, peak, before } = await withPeakRss(() => client.run(wf.id, wf.steps.at(-1)!));
    engineMs.push(result.ms);
    peakRss = Math.max(peakRss, peak);
    rssBefore = Math.min(rssBefore, before);
    if (result.ms < bestMs) {
      bestMs = result.ms;
      best = result.run;
    }
    log(`  engine, ${rows} rows: ${Math.round(result.ms)} ms, peak RSS ${Math.round(peak / MiB)} MiB (before ${Math.round(before / MiB)})`);
    await settled(client, app, result.run.id);
  }
  // Raw DuckDB after the engine, so its buffers do not count in the engine's RSS; as many threads as the engine's DuckDB.
  const config = loadConfig({ DATA_DIR: dataDir });
  const rawMs: number[] = [];
  let rawPeakRss = 0;
  const instance = await DuckDBInstance.create(':memory:', { threads: String(config.datasets.duckdbThreads), memory_limit: config.datasets.duckdbMemoryLimit });
  const connection = await instance.connect();
  try {
    for (let r = 0; r < REPEAT; r++) {
      const out = path.join(dataDir, `raw-${rows}-${r}.csv`);
      const { peak } = await withPeakRss(async () => {
        const start = performance.now();
        await connection.run(rawQuery(csv, out));
        rawMs.push(performance.now() - start);
      });
      rawPeakRss = Math.max(rawPeakRss, peak);
      log(`  raw DuckDB, ${rows} rows: ${Math.round(rawMs.at(-1)!)} ms`);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  const steps = best!.step_runs.map(stepMs);
  return {
    rows,
    engineMs,
    rawMs,
    peakRss,
    rssBefore,
    rawPeakRss,
    steps,
    importedDataset: best!.step_runs[0].output_dataset_id!,
    sortedDataset: best!.step_runs[4].output_dataset_id!,
  };
}

interface PagesFigures {
  p50: number;
  p99: number;
  max: number;
  /** The import's first page, opened for the first time. */
  first: number;
  /** The sort step's output (50 rows, computed through the chain from the CSV), opened for the first time. */
  firstSorted: number;
  /** p99 of every request, the two first opens included. */
  p99WithFirst: number;
}

/** The first time ms of GET /datasets/{id}/records (page 1 of 100). */
async function openFirst(client: Client, datasetId: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${client.base}/api/v1/datasets/${datasetId}/records?page=1&page_size=100`, { headers: client.auth });
  if (!res.ok) throw new Error(`records: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - start;
}

/**
 * GET /datasets/{id}/records at random pages of 100, one request at a time over HTTP, after the
 * first opening of the import's output and of the sort step's (both deferred: answered from their
 * recipes while their snapshots are written behind).
 */
async function recordsPages(client: Client, datasetId: string, sortedId: string, rows: number): Promise<PagesFigures> {
  let seed = 42;
  const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const pages = Math.ceil(rows / 100);
  const get = async () => {
    const res = await fetch(`${client.base}/api/v1/datasets/${datasetId}/records?page=${1 + Math.floor(random() * pages)}&page_size=100`, {
      headers: client.auth,
    });
    if (!res.ok) throw new Error(`records: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  // First opens (docs/architecture.md, "Deferred snapshots"): timed apart, and counted in p99WithFirst.
  const first = await openFirst(client, datasetId);
  const firstSorted = await openFirst(client, sortedId);
  for (let i = 0; i < 19; i++) await get();
  const took: number[] = [];
  for (let i = 0; i < PAGE_REQUESTS; i++) {
    const start = performance.now();
    await get();
    took.push(performance.now() - start);
  }
  took.sort((a, b) => a - b);
  const all = [...took, first, firstSorted].sort((a, b) => a - b);
  return { p50: percentile(took, 50), p99: percentile(took, 99), max: took.at(-1)!, first, firstSorted, p99WithFirst: percentile(all, 99) };
}

/** A 100-row typed table, one value changed by `variant`, so no two runs share a cached step. */
function smallTable(variant: number) {
  return {
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'city', type: 'text' },
      { name: 'amount', type: 'number' },
    ],
    rows: Array.from({ length: 100 }, (_, i) => [i, `city ${i % 7}`, i === 0 ? variant : (i * 37) % 100]),
  };
}
const threeSteps = (variant: number) => [
  { type: 'table_input', params: smallTable(variant) },
  { type: 'filter', params: { condition: 'amount > 10' } },
  { type: 'sort', params: { columns: ['amount'], direction: 'descending' } },
];

interface SmallFigures {
  p50: number;
  p99: number;
  /** Medians per step run (ms), and of the time outside step runs. */
  stepMedians: number[];
  outsideMedian: number;
  concurrent: { runs: number; seconds: number; p50: number; p99: number };
  /** The same three statements in a warm DuckDB, in this process, one after another: p50 and p99 ms. */
  raw: { p50: number; p99: number };
}

/**
 * The small run's statements in a warm DuckDB (one connection, as many threads as the engine's):
 * the 100-row table made, filtered into a table, sorted into a table, the table changed each time.
 * What a run over 100 rows would cost with no engine around it.
 */
async function smallRaw(dataDir: string): Promise<{ p50: number; p99: number }> {
  const config = loadConfig({ DATA_DIR: dataDir });
  const instance = await DuckDBInstance.create(':memory:', { threads: String(config.datasets.duckdbThreads), memory_limit: config.datasets.duckdbMemoryLimit });
  const connection = await instance.connect();
  try {
    const took: number[] = [];
    for (let i = 0; i < 5 + SMALL_RUNS; i++) {
      const values = smallTable(1000 + i)
        .rows.map(([id, city, amount]) => `(${id}, '${city}', ${amount})`)
        .join(', ');
      const start = performance.now();
      await connection.run(`CREATE OR REPLACE TABLE t AS SELECT * FROM (VALUES ${values}) v(id, city, amount)`);
      await connection.run('CREATE OR REPLACE TABLE f AS SELECT * FROM t WHERE amount > 10');
      await connection.run('CREATE OR REPLACE TABLE s AS SELECT * FROM f ORDER BY amount DESC');
      if (i >= 5) took.push(performance.now() - start);
    }
    took.sort((a, b) => a - b);
    return { p50: percentile(took, 50), p99: percentile(took, 99) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function smallRuns(client: Client, dataDir: string): Promise<SmallFigures> {
  const wf = await client.workflow('Small, 3 steps', threeSteps(0));
  const took: number[] = [];
  const steps: number[][] = [[], [], []];
  const outside: number[] = [];
  for (let i = 0; i < 5 + SMALL_RUNS; i++) {
    await client.call('PATCH', `/workflow-steps/${wf.steps[0]}/param-inputs/partial`, { param_inputs: smallTable(1000 + i) });
    const { run, ms } = await client.run(wf.id, wf.steps[2]);
    if (i < 5) continue; // warm-up
    took.push(ms);
    const perStep = run.step_runs.map(stepMs);
    perStep.forEach((v, s) => steps[s].push(v));
    outside.push(ms - perStep.reduce((a, b) => a + b, 0));
  }
  took.sort((a, b) => a - b);
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );

  const workflows = [];
  for (let i = 0; i < CONCURRENT; i++) workflows.push(await client.workflow(`Small, concurrent ${i}`, threeSteps(5000 + i)));
  const start = performance.now();
  const each = await Promise.all(workflows.map((w) => client.run(w.id, w.steps[2]).then((r) => r.ms)));
  const seconds = (performance.now() - start) / 1000;
  each.sort((a, b) => a - b);
  return {
    p50: percentile(took, 50),
    p99: percentile(took, 99),
    stepMedians: steps.map(median),
    outsideMedian: median(outside),
    concurrent: { runs: CONCURRENT, seconds, p50: percentile(each, 50), p99: percentile(each, 99) },
    raw: await smallRaw(dataDir),
  };
}

async function codeStep(client: Client, csv: string): Promise<{ ms: number; recordsPerSecond: number; totalMs: number }> {
  const fileId = await client.upload(csv, `code-${CODE_ROWS}.csv`);
  const wf = await client.workflow(`Code over ${CODE_ROWS}`, [
    { type: 'import_csv', params: { file: fileId } },
    { type: 'code', params: { code: 'return { ...record, total: record.amount * record.quantity, customer: record.customer.toUpperCase() };' } },
  ]);
  const { run, ms } = await client.run(wf.id, wf.steps[1]);
  const code = stepMs(run.step_runs[1]);
  return { ms: code, recordsPerSecond: CODE_ROWS / (code / 1000), totalMs: ms };
}

interface BackendFigures {
  backend: Backend;
  pipelines: PipelineFigures[];
  pages: ({ rows: number } & PagesFigures) | null;
  small: SmallFigures;
  code: Awaited<ReturnType<typeof codeStep>> | null;
}

async function benchBackend(backend: Backend, csvDir: string): Promise<BackendFigures> {
  return withApp(backend, async (client, dataDir, app) => {
    log(`runs (${backend.label}): 3 steps over 100 rows, ${SMALL_RUNS} runs one after another, then ${CONCURRENT} at once`);
    const small = await smallRuns(client, dataDir);
    log(`  p50 ${small.p50.toFixed(1)} ms, p99 ${small.p99.toFixed(1)} ms; ${CONCURRENT} at once in ${small.concurrent.seconds.toFixed(2)} s`);
    const pipelines: PipelineFigures[] = [];
    for (const rows of SIZES) {
      log(`runs (${backend.label}): the 5-step workflow over ${rows.toLocaleString('en')} rows`);
      pipelines.push(await pipeline(client, app, await generateCsv(csvDir, rows), rows, dataDir));
    }
    const biggest = pipelines.at(-1);
    let pages: BackendFigures['pages'] = null;
    if (biggest && PAGE_REQUESTS > 0) {
      log(`runs (${backend.label}): records pages of the ${biggest.rows.toLocaleString('en')}-row import`);
      pages = { rows: biggest.rows, ...(await recordsPages(client, biggest.importedDataset, biggest.sortedDataset, biggest.rows)) };
    }
    let code: BackendFigures['code'] = null;
    if (CODE_ROWS > 0) {
      log(`runs (${backend.label}): a code step over ${CODE_ROWS.toLocaleString('en')} records`);
      code = await codeStep(client, await generateCsv(csvDir, CODE_ROWS));
      log(`  ${Math.round(code.recordsPerSecond)} records/s`);
    }
    return { backend, pipelines, pages, small, code };
  });
}

const f1 = (ms: number) => ms.toFixed(1);
const secs = (ms: number) => (ms / 1000).toFixed(2);
const min = (values: number[]) => Math.min(...values);

function report(results: BackendFigures[]): string {
  const cpus = os.cpus();
  const out: string[] = [];
  out.push(
    `Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} at the end.`,
  );
  out.push(`Event streams that closed before their run's end and were opened again: ${streamReconnects}.`);
  out.push(`Runs: best of ${REPEAT} for the 5-step workflow and for raw DuckDB (same process, same DuckDB threads).`);
  out.push('');
  out.push(
    '| 5-step workflow (import CSV → filter → formula → group by → sort → export CSV) | backend | engine s | raw DuckDB s | ratio (aim ≤ 1.5×) | peak RSS MiB (in the bench process; the compiled server below) | RSS before MiB | raw DuckDB peak RSS MiB |',
  );
  out.push('|---|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    for (const p of r.pipelines) {
      out.push(
        `| ${p.rows.toLocaleString('en')} rows | ${r.backend.label} | ${secs(min(p.engineMs))} | ${secs(min(p.rawMs))} | ${(min(p.engineMs) / min(p.rawMs)).toFixed(1)}× | ${Math.round(p.peakRss / MiB)} | ${Math.round(p.rssBefore / MiB)} | ${Math.round(p.rawPeakRss / MiB)} |`,
      );
    }
  }
  out.push('');
  out.push(`| where the best run's time went, ms | backend | rows | ${STEP_NAMES.join(' | ')} | outside step runs |`);
  out.push(`|---|---|---:|${STEP_NAMES.map(() => '---:').join('|')}|---:|`);
  for (const r of results) {
    for (const p of r.pipelines) {
      const inSteps = p.steps.reduce((a, b) => a + b, 0);
      out.push(
        `| step runs (started → ended) | ${r.backend.label} | ${p.rows.toLocaleString('en')} | ${p.steps.map((v) => Math.round(v)).join(' | ')} | ${Math.round(min(p.engineMs) - inSteps)} |`,
      );
    }
  }
  out.push('');
  out.push('| case | backend | p50 ms | p99 ms | other |');
  out.push('|---|---|---:|---:|---|');
  for (const r of results) {
    if (r.pages)
      out.push(
        `| records page (100) of the ${r.pages.rows.toLocaleString('en')}-row import, random page, ${PAGE_REQUESTS} HTTP requests one at a time, after both first opens (aim p99 ≤ 100 with them) | ${r.backend.label} | ${f1(r.pages.p50)} | ${f1(r.pages.p99)} | max ${f1(r.pages.max)} ms; first open of the import ${f1(r.pages.first)} ms, of the sort step's 50 rows ${f1(r.pages.firstSorted)} ms; p99 with both ${f1(r.pages.p99WithFirst)} ms |`,
      );
    const s = r.small;
    out.push(
      `| 3-step run over 100 rows (typed table → filter → sort), execute → run_succeeded event, ${SMALL_RUNS} runs one at a time (aim ≤ 3× the same statements in a warm DuckDB) | ${r.backend.label} | ${f1(s.p50)} | ${f1(s.p99)} | raw DuckDB p50 ${f1(s.raw.p50)} ms (p99 ${f1(s.raw.p99)}): **${(s.p50 / s.raw.p50).toFixed(1)}×**; medians: steps ${s.stepMedians.map((v) => Math.round(v)).join(' + ')} ms, outside step runs ${Math.round(s.outsideMedian)} ms |`,
    );
    out.push(
      `| … ${s.concurrent.runs} such runs started at once (each its own workflow) | ${r.backend.label} | ${f1(s.concurrent.p50)} | ${f1(s.concurrent.p99)} | ${(s.concurrent.runs / s.concurrent.seconds).toFixed(1)} runs/s (all done in ${s.concurrent.seconds.toFixed(2)} s) |`,
    );
    if (r.code)
      out.push(
        `| code step (per record, QuickJS) over ${CODE_ROWS.toLocaleString('en')} records: the step run | ${r.backend.label} | — | — | ${Math.round(r.code.recordsPerSecond).toLocaleString('en')} records/s (${secs(r.code.ms)} s; whole run ${secs(r.code.totalMs)} s) |`,
      );
  }
  return out.join('\n');
}

/** Resident memory of another process (Linux /proc): now, in bytes. */
function rssOf(pid: number): number {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return 0; // the process has ended
  }
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface CompiledFigures {
  rows: number;
  /** RSS of the started server before its first run. */
  before: number;
  /** Each run: its wall time, the process's peak while it ran, and what it rested at after its data was browsed. */
  runs: { ms: number; peak: number; resting: number }[];
  /** Raw DuckDB's query alone in a process of its own: wall time and that process's peak RSS. */
  raw: { ms: number; peak: number };
}

/** Samples a process's RSS every SAMPLE_MS while `work` runs: the work's answer and the peak. */
async function peakOf<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), SAMPLE_MS);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, rssOf(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/** Raw DuckDB's 5-step query in a Node process of its own (the engine's threads and memory limit), its RSS sampled from /proc. */
async function rawInOwnProcess(csv: string, dir: string): Promise<{ ms: number; peak: number }> {
  const config = loadConfig({ DATA_DIR: dir });
  const script = `
    import('@duckdb/node-api').then(async ({ DuckDBInstance }) => {
      const instance = await DuckDBInstance.create(':memory:', { threads: ${JSON.stringify(String(config.datasets.duckdbThreads))}, memory_limit: ${JSON.stringify(config.datasets.duckdbMemoryLimit)} });
      const connection = await instance.connect();
      const start = performance.now();
      await connection.run(${JSON.stringify(rawQuery(csv, path.join(dir, 'raw-own-process.csv')))});
      process.stdout.write(String(performance.now() - start));
      connection.closeSync();
      instance.closeSync();
    });`;
  const child = spawn(process.execPath, ['-e', script], { cwd: path.resolve(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const { peak } = await peakOf(child.pid!, () => new Promise((resolve) => child.once('exit', resolve)));
  return { ms: Number(out), peak };
}

/**
 * The memory aims as a deployment sees them: the 5-step workflow over the CSV run COMPILED_RUNS
 * times by the COMPILED server (`npm start`'s `node server/dist/server.js`, SQLite, in-process
 * worker) in a process of its own, each run on a fresh upload and followed by browsing its data (the
 * import's first page and 10 random ones, the sorted result), its resident memory sampled from /proc
 * every 50 ms: the peak of each run, and what the process rests at REST_MS after it. The in-process
 * figures above carry tsx's compiler and the bench's own buffers; this one carries only the product.
 * Raw DuckDB's query in a process of its own is the baseline.
 */
async function compiledServer(csv: string, rows: number): Promise<CompiledFigures> {
  const root = path.resolve(__dirname, '..');
  const entry = path.join(root, 'server', 'dist', 'server.js');
  log('runs (compiled server): building the server as npm start does');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'server', 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-compiled-'));
  const port = await freePort();
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_DIR: path.join(dataDir, 'no-web-app'),
      LOG_LEVEL: 'warn',
      IN_PROCESS_WORKER: 'true',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOGIN_RATE_LIMIT_MAX: '1000000000',
      LOGIN_RATE_LIMIT_PER_ADDRESS_MAX: '1000000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (
        await fetch(`${base}/api/v1/openapi.json`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 300) throw new Error('the compiled server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const client = await Client.signUp(base, 'compiled');
    const rest = () => new Promise((r) => setTimeout(r, REST_MS)).then(() => rssOf(child.pid!));
    const before = await rest();
    const runs: CompiledFigures['runs'] = [];
    for (let r = 0; r < COMPILED_RUNS; r++) {
      const fileId = await client.upload(csv, `orders-${rows}-${r}.csv`);
      const wf = await client.workflow(`Orders ${rows} (compiled) #${r}`, fiveSteps(fileId));
      const { result, peak } = await peakOf(child.pid!, async () => {
        const ran = await client.run(wf.id, wf.steps.at(-1)!);
        if (!BROWSE) return ran;
        // Browsing what it made: the import's first page and some others, and the sorted result.
        const [imported, sorted] = [ran.run.step_runs[0].output_dataset_id!, ran.run.step_runs[4].output_dataset_id!];
        await openFirst(client, imported);
        for (let page = 0; page < 10; page++) {
          const res = await fetch(`${base}/api/v1/datasets/${imported}/records?page=${1 + ((page * 997) % Math.ceil(rows / 100))}&page_size=100`, {
            headers: client.auth,
          });
          await res.arrayBuffer();
        }
        await openFirst(client, sorted);
        return ran;
      });
      const resting = await rest();
      runs.push({ ms: result.ms, peak, resting });
      log(
        `  compiled server, ${rows} rows, run ${r + 1}: ${Math.round(result.ms)} ms, peak RSS ${Math.round(peak / MiB)} MiB, resting after ${Math.round(resting / MiB)} MiB`,
      );
    }
    const raw = await rawInOwnProcess(csv, dataDir);
    log(`  raw DuckDB in its own process: ${Math.round(raw.ms)} ms, peak RSS ${Math.round(raw.peak / MiB)} MiB`);
    return { rows, before, runs, raw };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The compiled server's runs as a table, with the aims: peak ≤ 300 MiB, resting not growing. */
function compiledReport(c: CompiledFigures): string {
  const peaks = c.runs.map((r) => r.peak);
  const first = c.runs[0].resting;
  const last = c.runs.at(-1)!.resting;
  const lines = [
    `| 5-step workflow by the compiled server (node server/dist/server.js, SQLite, in-process worker), ${c.rows.toLocaleString('en')} rows, ${c.runs.length} runs${BROWSE ? ', each browsed after' : ''} | wall s | peak RSS MiB (aim ≤ 300) | resting RSS after, MiB |`,
    '|---|---:|---:|---:|',
    `| started, before any run | — | — | ${Math.round(c.before / MiB)} |`,
    ...c.runs.map((r, i) => `| run ${i + 1} | ${secs(r.ms)} | ${Math.round(r.peak / MiB)} | ${Math.round(r.resting / MiB)} |`),
    `| raw DuckDB's query alone, in a process of its own | ${secs(c.raw.ms)} | ${Math.round(c.raw.peak / MiB)} | — |`,
    '',
    `Highest peak ${Math.round(Math.max(...peaks) / MiB)} MiB; resting after run 1 ${Math.round(first / MiB)} MiB, after run ${c.runs.length} ${Math.round(last / MiB)} MiB (${last >= first ? '+' : ''}${Math.round((last - first) / MiB)} MiB; aim: no growth).`,
  ];
  return lines.join('\n');
}

export async function benchRuns(): Promise<string> {
  const csvDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-csv-'));
  try {
    const backends: Backend[] = [{ label: 'SQLite, in-process queue', databaseUrl: null, redisUrl: null }];
    if (PG_URL) backends.push({ label: REDIS_URL ? 'PostgreSQL + BullMQ' : 'PostgreSQL, in-process queue', databaseUrl: PG_URL, redisUrl: REDIS_URL });
    const results: BackendFigures[] = [];
    for (const backend of backends) results.push(await benchBackend(backend, csvDir));
    const biggest = Math.max(...SIZES);
    const compiled = await compiledServer(await generateCsv(csvDir, biggest), biggest);
    return `${report(results)}\n\n${compiledReport(compiled)}`;
  } finally {
    fs.rmSync(csvDir, { recursive: true, force: true });
  }
}
