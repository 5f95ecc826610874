import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config/config';
import { launchBrowser, chromiumPath } from '../e2e/support/browser';

/**
 * `npm run bench`: starts the real server on a fresh SQLite database (or DATABASE_URL) on a free
 * port and measures the hot paths over loopback HTTP. Prints one row per scenario; the README
 * records the figures of the reference machine.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-'));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    IN_PROCESS_WORKER: 'false',
    LOGIN_RATE_LIMIT_MAX: '1000000000',
  });
  const app = await buildApp({ config });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });

  const account = { email: 'bench@example.com', password: 'benchmark password', name: 'Bench' };
  await fetch(`${address}/api/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
  const loginBody = new URLSearchParams({ username: account.email, password: account.password }).toString();
  const login = await fetch(`${address}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: loginBody,
  });
  const { access_token } = (await login.json()) as { access_token: string };

  // A large workflow: 200 steps in a chain, the size the editor must stay responsive at.
  const auth = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
  const post = async (url: string, body: object) =>
    (await (await fetch(`${address}/api/v1${url}`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json()) as { id: string };
  const workflow = await post('/workflows', { name: 'Bench 200 steps' });
  let previous = await post('/workflow-steps', { workflow_id: workflow.id, step_type: 'import_csv' });
  for (let i = 1; i < 200; i++) previous = await post('/workflow-steps', { workflow_id: workflow.id, step_type: 'filter', inputs: [previous.id] });
  let toggle = 0;

  const scenarios: { name: string; opts: autocannon.Options }[] = [
    {
      name: 'GET /workflows/{id} (200 steps)',
      opts: { url: `${address}/api/v1/workflows/${workflow.id}`, headers: { authorization: `Bearer ${access_token}` } },
    },
    {
      name: 'PATCH param-inputs/partial on a 200-step workflow (commit + snapshot)',
      opts: {
        url: `${address}/api/v1/workflow-steps/${previous.id}/param-inputs/partial`,
        // A different value each time, so every request really writes a commit.
        requests: [
          {
            method: 'PATCH',
            headers: auth,
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ param_inputs: { condition: `amount > ${toggle++}` } }) }),
          },
        ],
      },
    },
    { name: 'GET /users/me (token check + 1 query)', opts: { url: `${address}/api/v1/users/me`, headers: { authorization: `Bearer ${access_token}` } } },
    { name: 'GET /users/me without token (401)', opts: { url: `${address}/api/v1/users/me` } },
    {
      name: 'POST /auth/login (argon2id verify)',
      opts: { url: `${address}/api/v1/auth/login`, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: loginBody },
    },
    { name: 'GET /api/v1/openapi.json', opts: { url: `${address}/api/v1/openapi.json` } },
  ];

  console.log(`Stepwise benchmarks: ${config.databaseUrl ? 'PostgreSQL' : 'SQLite'}, ${os.cpus().length} cores, ${DURATION}s each, 10 connections\n`);
  console.log('| scenario | requests/s | p50 ms | p99 ms | non-2xx |');
  console.log('|---|---:|---:|---:|---:|');
  for (const { name, opts } of scenarios) {
    const result = await autocannon({ connections: 10, duration: DURATION, ...opts });
    console.log(`| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} |`);
  }
  if (fs.existsSync(path.join(config.webDir, 'index.html')) && fs.existsSync(chromiumPath)) {
    await benchEditor(address, access_token, workflow.id);
  } else {
    console.log('\n(editor benchmark skipped: needs `npm run build:web` and Chromium)');
  }
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** The editor in real Chromium on the 200-step workflow: load, select a step, type in its form. */
async function benchEditor(address: string, token: string, workflowId: string) {
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
    await page.locator('.react-flow__node').nth(run + 5).click();
    await page.getByLabel('Step name').waitFor();
    rows.push(['select a step until its form shows', Date.now() - selectStart]);
    const typeStart = Date.now();
    await page.getByLabel('Step name').pressSequentially('abcdefghijklmnopqrst');
    rows.push(['type one character in the form (mean of 20)', (Date.now() - typeStart) / 20]);
  }
  await browser.close();
  console.log('\n| editor, 200 steps, Chromium | median ms |\n|---|---:|');
  for (const name of [...new Set(rows.map(([n]) => n))]) {
    const values = rows.filter(([n]) => n === name).map(([, v]) => v).sort((a, b) => a - b);
    console.log(`| ${name} | ${Math.round(values[Math.floor(values.length / 2)])} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
