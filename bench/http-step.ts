import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stepMs, withApp } from './runs';

/**
 * The HTTP request step against a plain client (`npm run bench` with BENCH_HTTP=1, or `only`):
 * the same N GET calls to the same local service at the same concurrency, once made by Node's
 * fetch in a loop and once by the step over an imported CSV of N records (SQLite, in-process
 * worker, as `npm start` runs, billing off). The service runs in its own process and answers a small JSON body
 * after a fixed delay: 0 ms (the step's own cost per call dominates) and 10 ms (a fast API). The
 * step's time is its step run's (started → ended), which includes storing its output dataset.
 */
const RECORDS = Number(process.env.BENCH_HTTP_RECORDS ?? 5000);
const CONCURRENCY = 8;
const DELAYS_MS = [0, 10];
const REPEAT = 2;

const log = (message: string) => process.stderr.write(`${message}\n`);

const SERVICE = `
const http = require('node:http');
const delay = Number(process.argv[1]);
const server = http.createServer((req, res) => {
  const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ n: new URL(req.url, 'http://x').searchParams.get('n'), ok: true }));
  delay ? setTimeout(answer, delay) : answer();
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function startService(delayMs: number): Promise<{ base: string; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', SERVICE, String(delayMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the service exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/** N calls with fetch, CONCURRENCY at a time; answers records per second. */
async function plainClient(base: string): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < RECORDS) {
        const n = ++next;
        const res = await fetch(`${base}/double?n=${n}`);
        if (!res.ok) throw new Error(`the service answered ${res.status}`);
        await res.json();
      }
    }),
  );
  return RECORDS / ((performance.now() - started) / 1000);
}

export async function benchHttpStep(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-http-'));
  const csv = path.join(dir, 'numbers.csv');
  fs.writeFileSync(csv, `n\n${Array.from({ length: RECORDS }, (_, i) => i + 1).join('\n')}\n`);
  const rows: string[] = [];
  try {
    for (const delay of DELAYS_MS) {
      const service = await startService(delay);
      try {
        await plainClient(service.base); // warm-up: connections, JIT
        let plain = 0;
        for (let i = 0; i < REPEAT; i++) plain = Math.max(plain, await plainClient(service.base));
        const step = await withApp(
          { label: 'SQLite, in-process queue', databaseUrl: null, redisUrl: null },
          async (client) => {
            const fileId = await client.upload(csv, 'numbers.csv');
            let best = 0;
            for (let i = 0; i < REPEAT; i++) {
              // A new workflow each time: the HTTP step is never reused from an earlier run.
              const wf = await client.workflow(`HTTP ${delay} ms #${i}`, [
                { type: 'import_csv', params: { file: fileId } },
                { type: 'http_request', params: { url: `${service.base}/double?n={{field.n}}`, concurrency: CONCURRENCY } },
              ]);
              const { run } = await client.run(wf.id, wf.steps[1]);
              best = Math.max(best, RECORDS / (stepMs(run.step_runs[1]) / 1000));
            }
            return best;
          },
          // Billing off: a new account's 100 credits pay for 1,000 calls, not the bench's.
          { HTTP_STEPS_ALLOW_PRIVATE: 'true', BILLING_ENABLED: 'false', STRIPE_TEST_CHECKOUT: 'false' },
        );
        log(`HTTP step, service delay ${delay} ms: plain fetch ${Math.round(plain)}/s, step ${Math.round(step)}/s`);
        rows.push(`| ${delay} ms | ${Math.round(plain).toLocaleString('en')} | ${Math.round(step).toLocaleString('en')} | ${(step / plain).toFixed(2)} |`);
      } finally {
        service.stop();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return [
    `| HTTP request step, ${RECORDS.toLocaleString('en')} GET calls at concurrency ${CONCURRENCY}, service answer delay | plain fetch calls/s | step records/s | step ÷ plain (aim ≥ 0.9) |`,
    '|---|---:|---:|---:|',
    ...rows,
  ].join('\n');
}
