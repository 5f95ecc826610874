import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config/config';

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

  const scenarios: { name: string; opts: autocannon.Options }[] = [
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
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
