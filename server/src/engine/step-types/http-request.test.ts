import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressPolicy, createOutboundHttpClient, idempotencyKey, type OutboundHttpClient } from '../outbound-http';
import { StepRunFailed } from '../runners/execute';
import { StepParamsInvalid } from '../runners/errors';
import type { PerRecordRunner } from '../runners/types';
import { HTTP_BATCH_SIZE, httpRequest } from './http-request';
import { MemoryCallJournal, testRunContext } from '../../test/engine/per-record-test-context';

const runner = httpRequest.runner as PerRecordRunner;

// A real HTTP server on 127.0.0.1, reached by a client whose policy allows 127.0.0.1 (as the
// outbound-http tests do); a client with the default policy proves the same server is refused.

let server: http.Server;
let base: string;
let allowed: OutboundHttpClient;
let strict: OutboundHttpClient;
const hits = new Map<string, number>();
/** Calls of /hold under way now, the most at once, and the order they started in. */
const held = { now: 0, most: 0, started: [] as string[] };
const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const n = (hits.get(url.pathname) ?? 0) + 1;
    hits.set(url.pathname, n);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (url.pathname.startsWith('/customers/')) {
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ id: decodeURIComponent(url.pathname.slice('/customers/'.length)), q: url.searchParams.get('q') }));
      }
      switch (url.pathname) {
        case '/text':
          res.setHeader('content-type', 'text/plain; charset=utf-8');
          return res.end('plain 文本');
        case '/echo':
          res.setHeader('content-type', 'application/json');
          return res.end(
            JSON.stringify({
              method: req.method,
              auth: req.headers.authorization ?? null,
              type: req.headers['content-type'] ?? null,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        case '/busy':
          res.statusCode = n === 1 ? 429 : 200;
          if (n === 1) res.setHeader('retry-after', '1');
          return res.end(n === 1 ? 'slow down' : 'ok now');
        case '/broken':
          res.statusCode = 500;
          res.setHeader('content-type', 'application/json');
          return res.end('{"error":"boom"}');
        case '/hold':
          held.now++;
          held.most = Math.max(held.most, held.now);
          held.started.push(url.searchParams.get('id') ?? '');
          return setTimeout(() => {
            held.now--;
            res.end('held');
          }, 20);
        case '/slow':
          return setTimeout(() => res.end('late'), 3000).unref();
        default:
          res.statusCode = 404;
          return res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  allowed = createOutboundHttpClient({ policy: new AddressPolicy({ allowedHosts: ['127.0.0.1'] }) });
  strict = createOutboundHttpClient({ policy: new AddressPolicy() });
});

afterAll(async () => {
  await allowed.close();
  await strict.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  hits.clear();
  seen.length = 0;
  Object.assign(held, { now: 0, most: 0, started: [] });
});

const input = [
  { name: '_id', type: 'VARCHAR' },
  { name: 'customer', type: 'VARCHAR' },
  { name: 'age', type: 'BIGINT' },
];
const records = [
  { _id: 'r1', customer: 'a/b c?&', age: 36 },
  { _id: 'r2', customer: '李雷', age: 17 },
];

describe('the HTTP request step', () => {
  it('adds the response, its status and an error column', () => {
    expect(runner.appendedColumns!(input, { url: `${base}/x` })).toEqual([
      { name: 'response', type: 'JSON' },
      { name: 'response_status', type: 'BIGINT' },
      { name: 'response_error', type: 'VARCHAR' },
    ]);
    expect(runner.batchSize({})).toBe(HTTP_BATCH_SIZE);
    expect(runner.output).toBe('append');
  });

  it('fills the URL per record, URL-encoding values, and stores parsed JSON', async () => {
    const ctx = testRunContext({ http: allowed, vars: { term: 'x&y=1' } });
    const out = await runner.processBatch(ctx, records, { url: `${base}/customers/{{field.customer}}?q={{var.term}}` });
    expect(out).toEqual({
      rows: [
        { _id: 'r1', response: { id: 'a/b c?&', q: 'x&y=1' }, response_status: 200, response_error: null },
        { _id: 'r2', response: { id: '李雷', q: 'x&y=1' }, response_status: 200, response_error: null },
      ],
    });
    expect(seen.map((s) => s.url).sort()).toEqual(['/customers/%E6%9D%8E%E9%9B%B7?q=x%26y%3D1', '/customers/a%2Fb%20c%3F%26?q=x%26y%3D1']);
    // One call made per record, keyed by the record: a batch redone after a crash is not paid twice.
    expect(ctx.used.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { kind: 'step.http_request.call', quantity: 1, key: 'r1' },
      { kind: 'step.http_request.call', quantity: 1, key: 'r2' },
    ]);
  });

  it('uses a URL that is one reference alone as it is', async () => {
    const out = await runner.processBatch(testRunContext({ http: allowed }), [{ _id: 'r1', link: `${base}/text?a=1&b=2` }], { url: '{{field.link}}' });
    expect(out.rows[0]).toMatchObject({ response: 'plain 文本', response_status: 200 });
    expect(seen[0].url).toBe('/text?a=1&b=2');
  });

  it('stores a body that is not JSON as its text', async () => {
    const out = await runner.processBatch(testRunContext({ http: allowed }), records.slice(0, 1), { url: `${base}/text`, output_column: 'answer' });
    expect(out.rows).toEqual([{ _id: 'r1', answer: 'plain 文本', answer_status: 200, answer_error: null }]);
  });

  it('sends a JSON body with values escaped and typed, and the secret as a Bearer token', async () => {
    const ctx = testRunContext({ http: allowed, vars: { token: 's3cret' } });
    const out = await runner.processBatch(ctx, [{ _id: 'r1', customer: 'say "hi"', age: 36 }], {
      method: 'POST',
      url: `${base}/echo`,
      body: '{"who": "{{field.customer}}", "age": "{{field.age}}", "note": "age {{field.age}}"}',
      auth_secret: '{{var.token}}',
      headers: { 'X-Customer': '{{field.age}}' },
    });
    const echo = out.rows[0].response as { method: string; auth: string; type: string; body: string };
    expect(echo).toMatchObject({ method: 'POST', auth: 'Bearer s3cret', type: 'application/json' });
    expect(JSON.parse(echo.body)).toEqual({ who: 'say "hi"', age: 36, note: 'age 36' });
    expect(seen[0].headers['x-customer']).toBe('36');
  });

  // Over Jest’s 5 s at worst: the stand-in asks for a real 1 s Retry-After, which the step must honour.
  it('retries a 429, waiting as Retry-After asks', async () => {
    const ctx = testRunContext({ http: allowed });
    const started = Date.now();
    const out = await runner.processBatch(ctx, records.slice(0, 1), { url: `${base}/busy` });
    expect(out.rows[0]).toMatchObject({ response: 'ok now', response_status: 200, response_error: null });
    expect(hits.get('/busy')).toBe(2);
    // The retry is the same call: it carries the same Idempotency-Key.
    const [first, second] = seen.map((s) => s.headers['idempotency-key']);
    expect([first, second]).toEqual([idempotencyKey(ctx.stepRunId, ['r1']), idempotencyKey(ctx.stepRunId, ['r1'])]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(ctx.lines).toEqual(['record “r1”: attempt 1 got status 429, retrying in 1000 ms']);
  }, 10_000);

  it('keeps going past a 500 with continue_on_error: the error in the row, the id in failedIds', async () => {
    const out = await runner.processBatch(
      testRunContext({ http: allowed }),
      [
        { _id: 'r1', path: 'broken' },
        { _id: 'r2', path: 'text' },
      ],
      { url: `${base}/{{field.path}}`, method: 'POST' },
    );
    expect(out.failedIds).toEqual(['r1']);
    expect(out.rows).toEqual([
      { _id: 'r1', response: { error: 'boom' }, response_status: 500, response_error: '127.0.0.1 answered with HTTP status 500.' },
      { _id: 'r2', response: 'plain 文本', response_status: 200, response_error: null },
    ]);
  });

  it('starts at most rate_limit_per_second calls per second, across the batches of a step run', async () => {
    const ctx = testRunContext({ http: allowed });
    const started = Date.now();
    const nextBatch = records.map((r) => ({ ...r, _id: `${String(r._id)}-next` }));
    for (const batch of [records, nextBatch]) await runner.processBatch(ctx, batch, { url: `${base}/text`, rate_limit_per_second: 5 });
    // Four calls evenly spaced at 5 per second: the last starts 600 ms after the first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(hits.get('/text')).toBe(4);
  });

  it('keeps to its concurrency across two batches of a step run running side by side, the earlier batch first', async () => {
    // The engine starts the next batch before the last calls of the one before have answered
    // (overlapBatches): both batches' calls share one limit.
    expect(runner.overlapBatches).toBe(true);
    const ctx = testRunContext({ http: allowed });
    const batch = (name: string) => Array.from({ length: 6 }, (_, i) => ({ _id: `${name}${i}` }));
    const params = { url: `${base}/hold?id={{field._id}}`, concurrency: 3 };
    await Promise.all([runner.processBatch(ctx, batch('a'), params), runner.processBatch(ctx, batch('b'), params)]);
    expect(hits.get('/hold')).toBe(12);
    expect(held.most).toBe(3);
    expect(held.started.slice(0, 6).every((id) => id.startsWith('a'))).toBe(true);
  });

  it('fails the batch on the first error without continue_on_error', async () => {
    const run = runner.processBatch(testRunContext({ http: allowed }), [{ _id: 'r1', path: 'broken' }], {
      url: `${base}/{{field.path}}`,
      method: 'POST',
      continue_on_error: false,
    });
    await expect(run).rejects.toBeInstanceOf(StepRunFailed);
    await expect(run).rejects.toMatchObject({ values: { reason: 'record “r1”: 127.0.0.1 answered with HTTP status 500.' } });
  });

  it('fails a call that takes longer than its time limit', async () => {
    const out = await runner.processBatch(testRunContext({ http: allowed }), records.slice(0, 1), { url: `${base}/slow`, method: 'POST', timeout_seconds: 1 });
    expect(out.rows[0]).toMatchObject({ response: null, response_status: null, response_error: '127.0.0.1 did not answer within 1 seconds.' });
    expect(out.failedIds).toEqual(['r1']);
  });

  it('refuses 127.0.0.1 when the operator has not allowed private addresses', async () => {
    const out = await runner.processBatch(testRunContext({ http: strict }), records.slice(0, 1), { url: `${base}/text` });
    expect(out.rows[0].response_error).toBe(
      'Calls to 127.0.0.1 are not allowed: it leads to a private, local or reserved address (127.0.0.1). An administrator can allow it with HTTP_STEPS_ALLOWED_HOSTS.',
    );
    expect(hits.size).toBe(0);
  });

  it('stops the batch when the run is cancelled', async () => {
    const ctx = testRunContext({ http: allowed });
    const run = runner.processBatch(ctx, records, { url: `${base}/slow` });
    setTimeout(() => ctx.controller.abort(new Error('cancelled')), 200);
    await expect(run).rejects.toThrow('cancelled');
  });

  it('checks references and the new columns against the input before running', () => {
    const problem = (params: Record<string, unknown>) => {
      try {
        runner.outputColumns([input], params);
      } catch (err) {
        if (err instanceof StepParamsInvalid) return err.problems.map((p) => [p.key, p.loc]);
        throw err;
      }
      return [];
    };
    expect(problem({ url: `${base}/{{field.missing}}` })).toEqual([['server.steps.unknownColumn', ['url']]]);
    expect(problem({ url: `${base}/x`, body: '{{var.nope}}' })).toEqual([]);
    expect(problem({ url: `${base}/x`, output_column: 'Customer' })).toEqual([['server.steps.duplicateOutput', ['output_column']]]);
    expect(problem({ url: `${base}/x`, headers: { 'X-A': '{{field.nope}}' } })).toEqual([['server.steps.unknownColumn', ['headers', 'X-A']]]);
    expect(() => runner.outputColumns([[...input, { name: 'response_status', type: 'BIGINT' }]], { url: 'https://x.test' })).toThrow(StepParamsInvalid);
    expect(runner.outputColumns([input], { url: 'https://x.test/{{field.customer}}' }).map((c) => c.name)).toEqual([
      '_id',
      'customer',
      'age',
      'response',
      'response_status',
      'response_error',
    ]);
  });

  describe('finished calls (ctx.calls)', () => {
    it('checkpoints each call as its answer arrives, failed ones marked', async () => {
      const calls = new MemoryCallJournal();
      const batch = [
        { _id: 'r1', path: 'text' },
        { _id: 'r2', path: 'broken' },
      ];
      await runner.processBatch(testRunContext({ http: allowed, calls }), batch, { url: `${base}/{{field.path}}` });
      expect([...calls.entries.keys()].sort()).toEqual(['r1', 'r2']);
      expect(calls.entries.get('r1')).toEqual({ row: { _id: 'r1', response: 'plain 文本', response_status: 200, response_error: null }, failed: false });
      expect(calls.entries.get('r2')).toMatchObject({ row: { _id: 'r2', response_status: 500 }, failed: true });
    });

    it('does not call again a record whose call finished, and reports its usage and failure as before', async () => {
      const calls = new MemoryCallJournal();
      const batch = [
        { _id: 'r1', path: 'text' },
        { _id: 'r2', path: 'broken' },
        { _id: 'r3', path: 'text' },
      ];
      const params = { url: `${base}/{{field.path}}` };
      const first = await runner.processBatch(testRunContext({ http: allowed, calls }), batch.slice(0, 2), params);
      hits.clear();
      // The batch redone (a crash before it was stored): only r3 is new.
      const ctx = testRunContext({ http: allowed, calls });
      const again = await runner.processBatch(ctx, batch, params);
      expect(hits.get('/text')).toBe(1);
      expect(hits.get('/broken')).toBeUndefined();
      expect(again.rows.slice(0, 2)).toEqual(first.rows);
      expect(again.failedIds).toEqual(['r2']);
      expect(ctx.used.map((u) => u.key).sort()).toEqual(['r1', 'r2', 'r3']);
    });

    it('does not checkpoint a call that failed the batch (a retry calls it again)', async () => {
      const calls = new MemoryCallJournal();
      await expect(
        runner.processBatch(testRunContext({ http: allowed, calls }), [{ _id: 'r1', path: 'broken' }], {
          url: `${base}/{{field.path}}`,
          continue_on_error: false,
        }),
      ).rejects.toThrow(StepRunFailed);
      expect(calls.entries.size).toBe(0);
    });
  });

  describe('Idempotency-Key', () => {
    const keysOf = () => Object.fromEntries(seen.map((s) => [JSON.parse(s.body).id as string, s.headers['idempotency-key']]));
    const post = { method: 'POST', body: '{"id": "{{field._id}}"}' };

    it('is the same for a record on every attempt of a step run, and differs between records and step runs', async () => {
      // Two attempts of one step run (a batch redone after a crash, a resume, a retry) run the
      // batch again under the same step run id; a new run of the workflow has another.
      await runner.processBatch(testRunContext({ http: allowed, stepRunId: 'run-a' }), records, { ...post, url: `${base}/echo` });
      const first = keysOf();
      seen.length = 0;
      await runner.processBatch(testRunContext({ http: allowed, stepRunId: 'run-a' }), records, { ...post, url: `${base}/echo` });
      const second = keysOf();
      seen.length = 0;
      await runner.processBatch(testRunContext({ http: allowed, stepRunId: 'run-b' }), records, { ...post, url: `${base}/echo` });
      const other = keysOf();
      expect(hits.get('/echo')).toBe(6);
      expect(first.r1).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(first).toEqual({ r1: idempotencyKey('run-a', ['r1']), r2: idempotencyKey('run-a', ['r2']) });
      expect(second).toEqual(first);
      expect(first.r1).not.toBe(first.r2);
      expect(other.r1).not.toBe(first.r1);
      expect(other.r2).not.toBe(first.r2);
    });

    it('is sent with every method', async () => {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'])
        await runner.processBatch(testRunContext({ http: allowed }), records.slice(0, 1), { method, url: `${base}/text` });
      expect(seen.map((s) => [s.method, s.headers['idempotency-key']])).toEqual(
        ['GET', 'PUT', 'PATCH', 'DELETE'].map((method) => [method, idempotencyKey('step-run-1', ['r1'])]),
      );
    });

    it('is not sent when idempotency_key is off', async () => {
      await runner.processBatch(testRunContext({ http: allowed }), records, { ...post, url: `${base}/echo`, idempotency_key: false });
      expect(seen).toHaveLength(2);
      expect(seen.map((s) => s.headers['idempotency-key'])).toEqual([undefined, undefined]);
    });

    it("gives way to the step's own header, in any case", async () => {
      await runner.processBatch(testRunContext({ http: allowed }), records, {
        ...post,
        url: `${base}/echo`,
        headers: { 'IDEMPOTENCY-key': 'order-{{field.age}}' },
      });
      expect(keysOf()).toEqual({ r1: 'order-36', r2: 'order-17' });
    });

    it('refuses a param that is not a boolean', () => {
      expect(() => runner.outputColumns([input], { url: `${base}/x`, idempotency_key: 'yes' })).toThrow(StepParamsInvalid);
    });
  });
});
