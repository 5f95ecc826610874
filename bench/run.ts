import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../server/src/db/database';
import { StepsService } from '../server/src/modules/steps/steps.service';
import { CodeSandbox, type CodeMode, type JsonRecord } from '../server/src/engine/sandbox';
import { launchBrowser, chromiumPath } from '../e2e/support/browser';
import { benchDatasets } from './datasets';
import { benchHttpStep } from './http-step';
import { benchImports } from './imports';
import { benchLedger } from './ledger';
import { benchRuns } from './runs';
import { ApiClient } from './api-client';
import { withPg } from './pg';

/**
 * `npm run bench`. The servers under test run in processes of their own (a bare Fastify route as
 * the baseline, then the real app on a fresh SQLite database, and on PostgreSQL when
 * BENCH_DATABASE_URL is set); this process only generates load (autocannon) over loopback HTTP and
 * seeds data. Every throughput is given absolute and as a share of the bare route measured in the
 * same run, so figures from different machines can be compared by their ratios.
 *
 * Env: BENCH_SECONDS (per case, default 8), BENCH_WARMUP_SECONDS (1), BENCH_AGED_EDITS (10000),
 * BENCH_READ_RATE (target req/s of the read-during-write case, 500), BENCH_DATABASE_URL (also run
 * on PostgreSQL), BENCH_PROFILE=1 (the app server writes a --cpu-prof profile to bench/profiles),
 * BENCH_EDITOR=1 (also time the editor in Chromium; needs `npm run build:web`), BENCH_DATASETS=1
 * (also page through a 1M-row dataset; `only`: that alone, see bench/datasets.ts), BENCH_SANDBOX=1
 * (also time the code step's sandbox; `only`: nothing else), BENCH_RUNS=1 (also time the run engine:
 * workflows over 100k and 1M rows, small runs, a code step; `only`: that alone, see bench/runs.ts),
 * BENCH_LEDGER=1 (also the credit ledger's balance and appends; `only`: that alone, see bench/ledger.ts),
 * BENCH_IMPORTS=1 (also every import path of a 1M-row file against raw DuckDB; `only`: that alone, see
 * bench/imports.ts), BENCH_FIRST_LOAD=only (the sign-in page's first load alone), BENCH_FIRST_PAINT_VISITS (cold visits
 * whose median first paint is given, 7).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const AGED_EDITS = Number(process.env.BENCH_AGED_EDITS ?? 10_000);
const READ_RATE = Number(process.env.BENCH_READ_RATE ?? 500);
const PG_URL = process.env.BENCH_DATABASE_URL || null;
const DATASETS = process.env.BENCH_DATASETS ?? '';
const CONNECTIONS = 10;
const root = path.resolve(__dirname, '..');

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

interface Server {
  url: string;
  stop(): Promise<void>;
}

/** Starts a bench server script (`bench/*.ts`) in its own Node process; it prints `{"url"}` when listening. */
async function startServer(script: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(__dirname, script)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as { url?: string };
        if (parsed.url) resolve(parsed.url);
      } catch {
        // not our line
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function load(opts: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors + result.timeouts };
}

/** A short run first so the JIT and caches are warm, then the measured one. */
async function measure(opts: autocannon.Options): Promise<Figures> {
  if (WARMUP > 0) await autocannon({ connections: CONNECTIONS, ...opts, duration: WARMUP });
  return load(opts);
}

// ---------- HTTP seeding ----------

class Client extends ApiClient {
  /** A 200-step chain, the size the editor must stay responsive at; answers its id and last step. */
  async bigWorkflow(name: string): Promise<{ id: string; lastStep: string }> {
    const workflow = await this.call<{ id: string }>('POST', '/workflows', { name });
    let previous = await this.call<{ id: string }>('POST', '/workflow-steps', { workflow_id: workflow.id, step_type: 'import_csv' });
    for (let i = 1; i < 200; i++) {
      previous = await this.call<{ id: string }>('POST', '/workflow-steps', { workflow_id: workflow.id, step_type: 'filter', inputs: [previous.id] });
    }
    return { id: workflow.id, lastStep: previous.id };
  }
}

/** PATCHes of one param, a different value each time so every request really writes a commit. */
function patchParam(client: Client, stepId: string): autocannon.Options {
  let n = 0;
  return {
    url: `${client.base}/api/v1/workflow-steps/${stepId}/param-inputs/partial`,
    requests: [
      {
        method: 'PATCH',
        headers: { ...client.auth, 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ param_inputs: { condition: `amount > ${n++}` } }) }),
      },
    ],
  };
}

// ---------- history size ----------

/** Bytes the database takes on disk (SQLite: after a checkpoint; PostgreSQL: tables, indexes and TOAST of the schema). */
async function databaseBytes(handle: DatabaseHandle, sqliteFile: string, pgSchema: string | null): Promise<number> {
  if (handle.dialect === 'sqlite') {
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(handle.db);
    return fs.statSync(sqliteFile).size;
  }
  await sql`vacuum analyze`.execute(handle.db).catch(() => undefined);
  const { rows } = await sql<{ bytes: number }>`
    select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${pgSchema} and c.relkind = 'r'`.execute(handle.db);
  return Number(rows[0].bytes);
}

/** The text the history stores for one workflow: deltas, checkpoints, change lists and messages. */
async function historyBytes(handle: DatabaseHandle, workflowId: string): Promise<{ commits: number; bytes: number }> {
  const row = await handle.db
    .selectFrom('workflow_commits')
    .select((eb) => [
      eb.fn.countAll<number>().as('commits'),
      sql<number>`coalesce(sum(length(coalesce(delta, '')) + length(coalesce(checkpoint, '')) + length(changes) + length(message)), 0)`.as('bytes'),
    ])
    .where('workflow_id', '=', workflowId)
    .executeTakeFirstOrThrow();
  return { commits: Number(row.commits), bytes: Number(row.bytes) };
}

// ---------- one database ----------

interface DatabaseResults {
  label: string;
  rows: { name: string; figures: Figures }[];
  readDuringWrite: { reads: Figures; writes: Figures };
  patch: { fresh: Figures; aged: Figures };
  history: { edits: number; seconds: number; dbBytesPerEdit: number; storedBytesPerEdit: number };
}

async function benchDatabase(label: string, databaseUrl: string | null): Promise<DatabaseResults> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-'));
  const pgSchema = databaseUrl ? `bench_${randomBytes(4).toString('hex')}` : null;
  if (databaseUrl) await withPg(databaseUrl, (c) => c.query(`create schema ${pgSchema}`));
  const profileDir = path.join(__dirname, 'profiles');
  const server = await startServer(
    'app-server.ts',
    {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      BENCH_PG_SCHEMA: pgSchema ?? '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      IN_PROCESS_WORKER: 'false',
      // Billing on, as a hosted install runs it (billing on needs a way to buy credits: the test checkout).
      BILLING_ENABLED: 'true',
      STRIPE_TEST_CHECKOUT: 'true',
      LOGIN_RATE_LIMIT_MAX: '1000000000',
      LOGIN_RATE_LIMIT_PER_ADDRESS_MAX: '1000000000',
    },
    process.env.BENCH_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  const sqliteFile = path.join(dataDir, 'stepwise.db');
  const handle = openDatabase({ databaseUrl, sqliteFile, pgSchema: pgSchema ?? undefined });
  try {
    log(`${label}: seeding`);
    const bench = await Client.signUp(server.url, 'Bench');
    const lister = await Client.signUp(server.url, 'Lister');
    for (let i = 0; i < 50; i++)
      await lister.call('POST', '/workflows', { name: `Workflow ${i}`, description: 'Fifty of them, the first page', tags: ['bench'] });
    const fresh = await bench.bigWorkflow('Fresh, 200 steps');
    const aged = await bench.bigWorkflow('Aged, 200 steps');
    const contended = await bench.bigWorkflow('Edited by ten clients, 200 steps');

    const rows: DatabaseResults['rows'] = [];
    log(`${label}: GET /users/me`);
    rows.push({ name: '`GET /api/v1/users/me`', figures: await measure({ url: `${server.url}/api/v1/users/me`, headers: bench.auth }) });
    log(`${label}: GET /workflows/`);
    rows.push({ name: '`GET /api/v1/workflows/` (50 workflows)', figures: await measure({ url: `${server.url}/api/v1/workflows/`, headers: lister.auth }) });
    log(`${label}: GET /workflows/{id}`);
    rows.push({
      name: '`GET /api/v1/workflows/{id}` (200 steps)',
      figures: await measure({ url: `${server.url}/api/v1/workflows/${fresh.id}`, headers: bench.auth }),
    });

    log(`${label}: reads at ${READ_RATE} req/s while 10 clients edit one workflow`);
    const [reads, writes] = await Promise.all([
      load({ url: `${server.url}/api/v1/users/me`, headers: bench.auth, overallRate: READ_RATE, connections: 20 }),
      load(patchParam(bench, contended.lastStep)),
    ]);

    log(`${label}: aging a workflow with ${AGED_EDITS} edits (service layer)`);
    const me = await bench.call<{ id: string }>('GET', '/users/me');
    const steps = new StepsService(handle.db);
    const dbBefore = await databaseBytes(handle, sqliteFile, pgSchema);
    const storedBefore = await historyBytes(handle, aged.id);
    const started = Date.now();
    for (let i = 0; i < AGED_EDITS; i++) {
      await steps.mergeParams(me.id, aged.lastStep, undefined, { condition: `amount > ${i}` });
      if ((i + 1) % 2000 === 0) log(`  ${i + 1} edits`);
    }
    const seconds = (Date.now() - started) / 1000;
    const dbAfter = await databaseBytes(handle, sqliteFile, pgSchema);
    const storedAfter = await historyBytes(handle, aged.id);
    const edits = Math.max(1, storedAfter.commits - storedBefore.commits);

    log(`${label}: PATCH on the fresh and the aged workflow (one client)`);
    const patchFresh = await measure({ ...patchParam(bench, fresh.lastStep), connections: 1 });
    const patchAged = await measure({ ...patchParam(bench, aged.lastStep), connections: 1 });

    if (process.env.BENCH_EDITOR === '1') await benchEditor(server.url, bench.token, fresh.id);

    return {
      label,
      rows,
      readDuringWrite: { reads, writes },
      patch: { fresh: patchFresh, aged: patchAged },
      history: { edits, seconds, dbBytesPerEdit: (dbAfter - dbBefore) / edits, storedBytesPerEdit: (storedAfter.bytes - storedBefore.bytes) / edits },
    };
  } finally {
    await handle.close();
    await server.stop();
    if (databaseUrl) await withPg(databaseUrl, (c) => c.query(`drop schema ${pgSchema} cascade`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------- report ----------

const log = (message: string) => process.stderr.write(`${message}\n`);
// autocannon measures latency in whole milliseconds: 0 means under one.
const ms = (value: number) => (value < 1 ? '<1' : Math.round(value).toString());
const share = (rps: number, bare: number) => `${Math.round((rps / bare) * 100)}%`;

function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
}

function report(bare: Figures, results: DatabaseResults[]) {
  const out: string[] = [];
  out.push(`Machine: ${machine()}.`);
  out.push(`Load: autocannon in a separate process, ${CONNECTIONS} connections, ${SECONDS} s per case after ${WARMUP} s of warm-up, loopback HTTP.`);
  out.push('');
  out.push('| case | database | req/s | share of bare Fastify | p50 ms | p99 ms | errors |');
  out.push('|---|---|---:|---:|---:|---:|---:|');
  out.push(`| bare Fastify route (baseline) | none | ${Math.round(bare.rps)} | 100% | ${ms(bare.p50)} | ${ms(bare.p99)} | ${bare.errors} |`);
  for (const r of results) {
    for (const { name, figures: f } of r.rows) {
      out.push(`| ${name} | ${r.label} | ${Math.round(f.rps)} | ${share(f.rps, bare.rps)} | ${ms(f.p50)} | ${ms(f.p99)} | ${f.errors} |`);
    }
    const { reads, writes } = r.readDuringWrite;
    out.push(
      `| \`GET /users/me\` at a ${READ_RATE} req/s target while 10 clients edit one workflow | ${r.label} | ${Math.round(reads.rps)} | (fixed rate) | ${ms(reads.p50)} | ${ms(reads.p99)} | ${reads.errors} |`,
    );
    out.push(
      `| … the 10 editing clients (PATCH a param, 200 steps) | ${r.label} | ${Math.round(writes.rps)} | ${share(writes.rps, bare.rps)} | ${ms(writes.p50)} | ${ms(writes.p99)} | ${writes.errors} |`,
    );
    for (const [name, f] of [
      ['PATCH a param, fresh 200-step workflow, 1 client', r.patch.fresh],
      [`PATCH a param, aged 200-step workflow (${r.history.edits} edits), 1 client`, r.patch.aged],
    ] as const) {
      out.push(`| ${name} | ${r.label} | ${Math.round(f.rps)} | ${share(f.rps, bare.rps)} | ${ms(f.p50)} | ${ms(f.p99)} | ${f.errors} |`);
    }
  }
  out.push('');
  out.push('| history of a one-param edit on a 200-step workflow | database | bytes per commit |');
  out.push('|---|---|---:|');
  for (const r of results) {
    out.push(`| database growth over ${r.history.edits} edits, per edit | ${r.label} | ${Math.round(r.history.dbBytesPerEdit)} |`);
    out.push(`| stored history text (delta, checkpoints, change list, message), per edit | ${r.label} | ${Math.round(r.history.storedBytesPerEdit)} |`);
  }
  out.push('');
  for (const r of results)
    out.push(
      `(${r.label}: the ${r.history.edits} edits took ${r.history.seconds.toFixed(1)} s through the service layer, ${Math.round(r.history.edits / r.history.seconds)} edits/s.)`,
    );
  console.log(out.join('\n'));
}

/**
 * What a first visit to the sign-in page downloads: the scripts Chromium fetches for /login from the
 * built app (built first when `dist/` is missing), with the bytes it actually received (brotli,
 * precompressed by the build) beside the raw and gzip sizes of the same files. Then how soon it
 * shows: first contentful paint, the median of FIRST_PAINT_VISITS cold visits (a fresh browser
 * context each, so nothing is cached), read once the page's heading is there, beside the same
 * figure for a trivial page (one heading, no script) as the floor of this browser on this machine.
 */
async function benchFirstLoad() {
  if (!fs.existsSync(chromiumPath)) {
    log('(first-load figure skipped: needs Chromium)');
    return;
  }
  const dist = path.join(root, 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    log('first load: building the web app (npm run build:web)');
    await new Promise<void>((resolve, reject) => {
      const build = spawn('npm', ['run', 'build:web'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
      build.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm run build:web exited with ${code}`))));
    });
  }
  log('first load: the sign-in page in Chromium');
  // First paint moves with what else the machine is doing: the load is printed with the figure.
  const loadAverage = os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(', ');
  // The floor to compare with: a page with one heading and no script, served the same way.
  const trivialPage = path.join(dist, 'bench-trivial.html');
  fs.writeFileSync(trivialPage, '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trivial</title></head><body><h1>Trivial</h1></body></html>');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-'));
  const server = await startServer('app-server.ts', { ...process.env, DATA_DIR: dataDir, WEB_DIR: dist, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const scripts: { path: string; transferred: Promise<number> }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.push({
        path: new URL(response.url()).pathname,
        transferred: response
          .request()
          .sizes()
          .then((sizes) => sizes.responseBodySize),
      });
    });
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.close();
    let raw = 0;
    let gzip = 0;
    let transferred = 0;
    for (const script of scripts) {
      const file = path.join(dist, script.path);
      raw += fs.statSync(file).size;
      gzip += fs.existsSync(`${file}.gz`) ? fs.statSync(`${file}.gz`).size : fs.statSync(file).size;
      transferred += await script.transferred;
    }
    const loginPaint = await medianFirstPaint(browser, `${server.url}/login`, 'Welcome back');
    const trivialPaint = await medianFirstPaint(browser, `${server.url}/bench-trivial.html`, 'Trivial');
    const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(`\n(load average when the first-load figures began: ${loadAverage})`);
    console.log(
      '\n| sign-in page (/login), first visit | scripts | raw | gzip | transferred (brotli) | first paint (median) | trivial page |\n|---|---:|---:|---:|---:|---:|---:|',
    );
    console.log(`| JavaScript | ${scripts.length} | ${kb(raw)} | ${kb(gzip)} | ${kb(transferred)} | ${seconds(loginPaint)} | ${seconds(trivialPaint)} |\n`);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(trivialPage, { force: true });
  }
}

const FIRST_PAINT_VISITS = Number(process.env.BENCH_FIRST_PAINT_VISITS ?? 7);

/** First contentful paint of `url` in ms, the median of FIRST_PAINT_VISITS visits, each in a fresh
 *  browser context (empty cache, no service worker), read once `heading` is on screen. */
async function medianFirstPaint(browser: Awaited<ReturnType<typeof launchBrowser>>, url: string, heading: string): Promise<number> {
  const paints: number[] = [];
  for (let visit = 0; visit < FIRST_PAINT_VISITS; visit++) {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(url);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      // The paint entry is recorded once the frame is presented, which may come after the heading
      // is found: wait for it (buffered), at most 10 s.
      const paint = await page.evaluate(
        () =>
          new Promise<number | null>((resolve) => {
            setTimeout(() => resolve(null), 10_000);
            new PerformanceObserver((list) => {
              const entry = list.getEntriesByName('first-contentful-paint')[0];
              if (entry) resolve(entry.startTime);
            }).observe({ type: 'paint', buffered: true });
          }),
      );
      if (paint === null) throw new Error(`${url}: no first contentful paint within 10 s of "${heading}" showing`);
      paints.push(paint);
    } finally {
      await context.close();
    }
  }
  paints.sort((a, b) => a - b);
  return paints[Math.floor(paints.length / 2)];
}

async function main() {
  const started = Date.now();
  if (process.env.BENCH_SANDBOX) await benchSandbox();
  if (process.env.BENCH_SANDBOX === 'only') return;
  if (process.env.BENCH_LEDGER) console.log(`\n${await benchLedger()}`);
  if (process.env.BENCH_LEDGER === 'only') return;
  if (process.env.BENCH_HTTP) console.log(`\n${await benchHttpStep()}`);
  if (process.env.BENCH_HTTP === 'only') return;
  if (process.env.BENCH_IMPORTS) console.log(`\n${await benchImports()}`);
  if (process.env.BENCH_IMPORTS === 'only') return;
  const RUNS = process.env.BENCH_RUNS ?? '';
  if (RUNS === 'only') {
    console.log(await benchRuns());
    log(`\nbench took ${Math.round((Date.now() - started) / 1000)} s`);
    return;
  }
  if (process.env.BENCH_FIRST_LOAD === 'only') {
    await benchFirstLoad();
    return;
  }
  if (DATASETS !== 'only') {
    await benchFirstLoad();
    log('bare Fastify baseline');
    const bareServer = await startServer('bare-server.ts', { ...process.env });
    let bare: Figures;
    try {
      bare = await measure({ url: `${bareServer.url}/hello` });
    } finally {
      await bareServer.stop();
    }
    const results = [await benchDatabase('SQLite', null)];
    if (PG_URL) results.push(await benchDatabase('PostgreSQL', PG_URL));
    report(bare, results);
  }
  if (DATASETS === '1' || DATASETS === 'only') console.log(`\n${await benchDatasets()}`);
  if (RUNS === '1') console.log(`\n${await benchRuns()}`);
  log(`\nbench took ${Math.round((Date.now() - started) / 1000)} s`);
}

/** The editor in real Chromium on the 200-step workflow: load, select a step, type in its form. */
async function benchEditor(address: string, token: string, workflowId: string) {
  if (!fs.existsSync(path.join(root, 'dist', 'index.html')) || !fs.existsSync(chromiumPath)) {
    log('(editor benchmark skipped: needs `npm run build:web` and Chromium)');
    return;
  }
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript((t) => localStorage.setItem('accessToken', t), token);
  const page = await context.newPage();
  const rows: [string, number][] = [];
  for (let run = 0; run < 3; run++) {
    const start = Date.now();
    await page.goto(`${address}/workflows/${workflowId}`);
    await page.locator('.react-flow__node').first().waitFor();
    rows.push(['open the editor until the graph shows', Date.now() - start]);
    const selectStart = Date.now();
    await page
      .locator('.react-flow__node')
      .nth(run + 5)
      .click();
    await page.getByLabel('Step name').waitFor();
    rows.push(['select a step until its form shows', Date.now() - selectStart]);
    const typeStart = Date.now();
    await page.getByLabel('Step name').pressSequentially('abcdefghijklmnopqrst');
    rows.push(['type one character in the form (mean of 20)', (Date.now() - typeStart) / 20]);
  }
  await browser.close();
  console.log('\n| editor, 200 steps, Chromium | median ms |\n|---|---:|');
  for (const name of [...new Set(rows.map(([n]) => n))]) {
    const values = rows
      .filter(([n]) => n === name)
      .map(([, v]) => v)
      .sort((a, b) => a - b);
    console.log(`| ${name} | ${Math.round(values[Math.floor(values.length / 2)])} |`);
  }
}

/**
 * The code step's sandbox in this process: 100,000 records in batches of 1,000, each batch in a
 * fresh QuickJS runtime (as the engine runs them), after one unmeasured pass of 10 batches.
 */
async function benchSandbox() {
  const RECORDS = 100_000;
  const BATCH = 1_000;
  const records: JsonRecord[] = Array.from({ length: RECORDS }, (_, i) => ({
    id: i,
    name: `customer ${i}`,
    amount: (i % 997) * 1.5,
    country: i % 3 ? 'NL' : 'DE',
  }));
  const cases: [string, CodeMode, string][] = [
    [
      'per record: spread, multiply by a variable, upper-case',
      'per_record',
      'return { ...record, total: record.amount * vars.rate, name: record.name.toUpperCase() };',
    ],
    [
      'per batch: the same as one map',
      'per_batch',
      'return records.map((record) => ({ ...record, total: record.amount * vars.rate, name: record.name.toUpperCase() }));',
    ],
    ['per record: return the record unchanged', 'per_record', 'return record;'],
  ];
  const rows: string[] = [];
  for (const [name, mode, code] of cases) {
    const sandbox = new CodeSandbox(code, mode);
    const vars = { rate: 1.21 };
    for (let b = 0; b < 10; b++) await sandbox.runBatch(records.slice(b * BATCH, (b + 1) * BATCH), { vars });
    const times: number[] = [];
    const start = process.hrtime.bigint();
    for (let b = 0; b < RECORDS / BATCH; b++) {
      const t = process.hrtime.bigint();
      await sandbox.runBatch(records.slice(b * BATCH, (b + 1) * BATCH), { vars, firstRecordIndex: b * BATCH });
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    times.sort((a, b) => a - b);
    rows.push(
      `| ${name} | ${Math.round(RECORDS / seconds)} | ${times[Math.floor(times.length / 2)].toFixed(1)} | ${times[Math.floor(times.length * 0.99)].toFixed(1)} |`,
    );
  }
  const empty = new CodeSandbox('return record;');
  const t = process.hrtime.bigint();
  for (let i = 0; i < 100; i++) await empty.runBatch([]);
  const emptyMs = Number(process.hrtime.bigint() - t) / 1e6 / 100;
  console.log(`\n| code step sandbox, ${RECORDS} records in batches of ${BATCH} | records/s | batch p50 ms | batch p99 ms |\n|---|---:|---:|---:|`);
  for (const row of rows) console.log(row);
  console.log(`\nAn empty batch (fresh runtime and context, harness, compile, dispose): ${emptyMs.toFixed(2)} ms.`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
