import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressPolicy } from './address-policy';
import { createOutboundHttpClient } from './client';
import type { OutboundHttpClient, OutboundResponse } from './client';
import { OutboundHttpError } from './errors';
import { parseRetryAfter, requestWithRetries, withRetries } from './retries';

let server: http.Server;
let base: string;
let client: OutboundHttpClient;
const hits = new Map<string, number>();
/** The Idempotency-Key of each request, in order. */
const keys: (string | undefined)[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const n = (hits.get(url.pathname) ?? 0) + 1;
    hits.set(url.pathname, n);
    keys.push(req.headers['idempotency-key'] as string | undefined);
    if (url.pathname === '/flaky') {
      res.statusCode = n <= 2 ? 503 : 200;
      return res.end(n <= 2 ? 'busy' : 'done');
    }
    if (url.pathname === '/rate-limited') {
      res.statusCode = n === 1 ? 429 : 200;
      if (n === 1) res.setHeader('retry-after', url.searchParams.get('after') ?? '1');
      return res.end(n === 1 ? 'slow down' : 'thanks');
    }
    if (url.pathname === '/missing') {
      res.statusCode = 404;
      return res.end();
    }
    res.statusCode = 500;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = createOutboundHttpClient({ policy: new AddressPolicy({ allowedHosts: ['127.0.0.1'] }) });
});

afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  hits.clear();
  keys.length = 0;
});

const recorder = () => {
  const waits: number[] = [];
  return { waits, sleep: (ms: number) => (waits.push(ms), Promise.resolve()) };
};

describe('withRetries', () => {
  it('retries 5xx with growing, jittered waits until it succeeds', async () => {
    const { waits, sleep } = recorder();
    const res = await withRetries(() => client.request({ url: `${base}/flaky` }), { sleep, random: () => 0.5, baseDelayMs: 100 });
    expect(res.status).toBe(200);
    expect(hits.get('/flaky')).toBe(3);
    expect(waits).toEqual([50, 100]);
  });

  it('returns the last answer when attempts run out', async () => {
    const { sleep } = recorder();
    const res = await withRetries(() => client.request({ url: `${base}/flaky` }), { sleep, maxAttempts: 2 });
    expect(res.status).toBe(503);
    expect(hits.get('/flaky')).toBe(2);
  });

  it('does not retry answers that will not change (404)', async () => {
    const { waits, sleep } = recorder();
    expect((await withRetries(() => client.request({ url: `${base}/missing` }), { sleep })).status).toBe(404);
    expect(waits).toEqual([]);
  });

  it('waits as long as Retry-After says, up to the cap', async () => {
    const { waits, sleep } = recorder();
    expect((await withRetries(() => client.request({ url: `${base}/rate-limited?after=7` }), { sleep })).status).toBe(200);
    expect(waits).toEqual([7000]);
    hits.clear();
    const capped = recorder();
    await withRetries(() => client.request({ url: `${base}/rate-limited?after=3600` }), { sleep: capped.sleep, maxRetryAfterMs: 5000 });
    expect(capped.waits).toEqual([5000]);
  });

  it('really waits for Retry-After', async () => {
    const started = Date.now();
    const res = await withRetries(() => client.request({ url: `${base}/rate-limited?after=1` }));
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('never retries POST or PATCH unless told it is safe', async () => {
    const { sleep } = recorder();
    const once = await withRetries(() => client.request({ method: 'POST', url: `${base}/flaky`, body: 'x' }), { method: 'POST', sleep });
    expect(once.status).toBe(503);
    expect(hits.get('/flaky')).toBe(1);
    hits.clear();
    const told = await withRetries(() => client.request({ method: 'POST', url: `${base}/flaky`, body: 'x' }), {
      method: 'POST',
      retryNonIdempotent: true,
      sleep,
    });
    expect(told.status).toBe(200);
  });

  it('requestWithRetries takes the method from the request', async () => {
    const { sleep } = recorder();
    expect((await requestWithRetries(client, { url: `${base}/flaky` }, { sleep })).status).toBe(200);
    hits.clear();
    expect((await requestWithRetries(client, { method: 'PATCH', url: `${base}/flaky`, body: 'x' }, { sleep })).status).toBe(503);
    expect(hits.get('/flaky')).toBe(1);
  });

  it('sends the same Idempotency-Key on every retry of a POST', async () => {
    const { sleep } = recorder();
    const request = { method: 'POST' as const, url: `${base}/flaky`, headers: { 'Idempotency-Key': 'k-1' }, body: 'x' };
    const res = await requestWithRetries(client, request, { sleep, retryNonIdempotent: true });
    expect(res.status).toBe(200);
    expect(hits.get('/flaky')).toBe(3);
    expect(keys).toEqual(['k-1', 'k-1', 'k-1']);
  });

  it('retries network errors but not refusals', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { waits, sleep } = recorder();
    const refused = await withRetries(() => client.request({ url: `http://127.0.0.1:${port}/` }), { sleep, maxAttempts: 3 }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'network', values: { reason: 'ECONNREFUSED' } });
    expect(waits).toHaveLength(2);
    const blocked = recorder();
    const denied = await withRetries(() => client.request({ url: 'http://10.0.0.1/' }), { sleep: blocked.sleep }).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(OutboundHttpError);
    expect(blocked.waits).toEqual([]);
  });

  it('stops waiting when the run is cancelled', async () => {
    const controller = new AbortController();
    const answer: OutboundResponse = { status: 503, headers: { 'retry-after': '60' }, body: Buffer.alloc(0), json: false, url: 'http://x/', redirects: 0 };
    const pending = withRetries(() => Promise.resolve(answer), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
