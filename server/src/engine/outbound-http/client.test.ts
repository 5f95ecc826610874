import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { AddressPolicy } from './address-policy';
import { createOutboundHttpClient, isJsonContentType } from './client';
import type { OutboundHttpClient } from './client';
import { OutboundHttpError } from './errors';

// A real HTTP server on 127.0.0.1. The client that reaches it has 127.0.0.1 on the operator's
// allow-list; a second client with the default policy proves the same server is refused.

let server: http.Server;
let port: number;
let base: string;
const counters = new Map<string, number>();

const dns: Record<string, LookupAddress[]> = {
  'api.test': [{ address: '127.0.0.1', family: 4 }],
  'internal.test': [{ address: '10.0.0.7', family: 4 }],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'mixed.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
};
const lookups: string[] = [];
const lookup = (hostname: string): Promise<LookupAddress[]> => {
  lookups.push(hostname);
  const answer = dns[hostname];
  return answer ? Promise.resolve(answer) : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
};

let allowed: OutboundHttpClient;
let strict: OutboundHttpClient;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hits = (counters.get(url.pathname) ?? 0) + 1;
    counters.set(url.pathname, hits);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      switch (url.pathname) {
        case '/json':
          res.setHeader('content-type', 'application/json; charset=utf-8');
          return res.end('{"ok":true,"n":1}');
        case '/broken-json':
          res.setHeader('content-type', 'application/json');
          return res.end('{not json');
        case '/text':
          res.setHeader('content-type', 'text/plain');
          return res.end('hello');
        case '/echo':
          res.setHeader('content-type', 'application/json');
          return res.end(JSON.stringify({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }));
        case '/redirect':
          res.statusCode = Number(url.searchParams.get('status') ?? 302);
          res.setHeader('location', url.searchParams.get('to') ?? '/json');
          return res.end('moving');
        case '/chain': {
          const left = Number(url.searchParams.get('n'));
          res.statusCode = left > 0 ? 302 : 200;
          if (left > 0) res.setHeader('location', `/chain?n=${left - 1}`);
          return res.end(left > 0 ? '' : 'arrived');
        }
        case '/big':
          // Chunked, no Content-Length: the cap has to count the bytes as they come.
          res.write(Buffer.alloc(64 * 1024, 'a'));
          res.write(Buffer.alloc(64 * 1024, 'a'));
          return res.end(Buffer.alloc(64 * 1024, 'a'));
        case '/big-declared':
          res.setHeader('content-length', String(5_000_000));
          return res.write('a');
        case '/huge-head':
          res.setHeader('x-filler', 'a'.repeat(80 * 1024));
          return res.end('ok');
        case '/slow':
          return setTimeout(() => res.end('late'), 3000).unref();
        case '/slow-body':
          res.writeHead(200, { 'content-type': 'text/plain' });
          return res.write('start');
        case '/flaky':
          res.statusCode = hits <= 2 ? 503 : 200;
          return res.end(hits <= 2 ? 'busy' : 'done');
        case '/rate-limited':
          res.statusCode = hits === 1 ? 429 : 200;
          if (hits === 1) res.setHeader('retry-after', url.searchParams.get('after') ?? '1');
          return res.end(hits === 1 ? 'slow down' : 'thanks');
        default:
          res.statusCode = 404;
          return res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  allowed = createOutboundHttpClient({ policy: new AddressPolicy({ allowedHosts: ['127.0.0.1/32'] }), lookup, defaultTimeoutMs: 5000 });
  strict = createOutboundHttpClient({ policy: new AddressPolicy(), lookup, defaultTimeoutMs: 5000 });
});

afterAll(async () => {
  await Promise.all([allowed.close(), strict.close()]);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  counters.clear();
  lookups.length = 0;
});

async function failure(promise: Promise<unknown>): Promise<OutboundHttpError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof OutboundHttpError) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}

describe('outbound HTTP client', () => {
  it('parses JSON answers and hands other bodies over as bytes', async () => {
    const json = await allowed.request({ url: `${base}/json` });
    expect(json).toMatchObject({ status: 200, json: true, body: { ok: true, n: 1 }, url: `${base}/json`, redirects: 0 });
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    const text = await allowed.request({ url: `${base}/text` });
    expect(text.json).toBe(false);
    expect(Buffer.isBuffer(text.body) && text.body.toString()).toBe('hello');
    const broken = await allowed.request({ url: `${base}/broken-json` });
    expect(broken.json).toBe(false);
  });

  it('leaves a JSON answer as bytes with parseJson false, for the caller to parse off the event loop', async () => {
    const raw = await allowed.request({ url: `${base}/json`, parseJson: false });
    expect(raw).toMatchObject({ status: 200, json: false });
    expect(Buffer.isBuffer(raw.body) && JSON.parse(raw.body.toString())).toEqual({ ok: true, n: 1 });
    expect(isJsonContentType(raw.headers['content-type'])).toBe(true);
    expect(['application/problem+json', 'Application/JSON; charset=utf-8'].map(isJsonContentType)).toEqual([true, true]);
    expect(['text/json', '', undefined].map(isJsonContentType)).toEqual([false, false, false]);
  });

  it('sends method, headers and a JSON body', async () => {
    const res = await allowed.request({ method: 'POST', url: `${base}/echo`, headers: { 'X-Trace': 'abc' }, body: { email: 'a@b.c' } });
    expect(res.body).toMatchObject({ method: 'POST', body: '{"email":"a@b.c"}', headers: { 'x-trace': 'abc', 'content-type': 'application/json' } });
  });

  it('refuses 127.0.0.1 without the allow-list, before connecting', async () => {
    const err = await failure(strict.request({ url: `${base}/json` }));
    expect(err).toMatchObject({ kind: 'blocked_address', key: 'server.http.blockedAddress', values: { address: '127.0.0.1' } });
    expect(counters.get('/json')).toBeUndefined();
  });

  it.each([
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::1]/',
    'http://0.0.0.0/',
    'http://0/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.0.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
  ])('refuses %s', async (url) => {
    const err = await failure(strict.request({ url, timeoutMs: 1000 }));
    expect(err.kind).toBe('blocked_address');
  });

  it('keeps cloud metadata shut even when private addresses are allowed', async () => {
    const open = createOutboundHttpClient({ policy: new AddressPolicy({ allowPrivate: true }), lookup });
    try {
      expect((await failure(open.request({ url: 'http://169.254.169.254/latest/' }))).kind).toBe('blocked_address');
      expect((await failure(open.request({ url: 'http://metadata.test/' }))).kind).toBe('blocked_address');
      expect((await open.request({ url: `${base}/text` })).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('checks the address a host name resolves to, at connection time', async () => {
    expect(await failure(strict.request({ url: `http://internal.test:${port}/json` }))).toMatchObject({
      kind: 'blocked_address',
      values: { host: 'internal.test', address: '10.0.0.7' },
    });
    expect(await failure(strict.request({ url: `http://api.test:${port}/json` }))).toMatchObject({ kind: 'blocked_address', values: { address: '127.0.0.1' } });
    // One private answer among public ones is enough to refuse: the connection could pick any.
    expect((await failure(strict.request({ url: `http://mixed.test:${port}/json` }))).kind).toBe('blocked_address');
    expect((await failure(strict.request({ url: `http://mapped.test:${port}/json` }))).kind).toBe('blocked_address');
    expect(lookups).toEqual(['internal.test', 'api.test', 'mixed.test', 'mapped.test']);
    expect(counters.get('/json')).toBeUndefined();
    // The allowed client connects to exactly the address the lookup answered.
    expect((await allowed.request({ url: `http://api.test:${port}/json` })).body).toEqual({ ok: true, n: 1 });
  });

  it('an allowed host name may resolve to a private address; the address itself stays refused', async () => {
    const byName = createOutboundHttpClient({ policy: new AddressPolicy({ allowedHosts: ['api.test'] }), lookup });
    try {
      expect((await byName.request({ url: `http://api.test:${port}/text` })).status).toBe(200);
      expect((await failure(byName.request({ url: `${base}/text` }))).kind).toBe('blocked_address');
    } finally {
      await byName.close();
    }
  });

  it('reports an unknown host as a network error', async () => {
    expect(await failure(strict.request({ url: 'http://nowhere.test/' }))).toMatchObject({
      kind: 'network',
      values: { host: 'nowhere.test', reason: 'ENOTFOUND' },
    });
  });

  it.each([
    ['ftp://example.com/file', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['gopher://example.com/', 'scheme'],
    ['not a url', 'syntax'],
    ['http://user:secret@example.com/', 'credentials'],
    ['a 9000-character URL', 'length'],
  ])('refuses the URL %s', async (given, reason) => {
    const url = given.startsWith('a 9000') ? `http://example.com/${'a'.repeat(9000)}` : given;
    expect(await failure(strict.request({ url }))).toMatchObject({ kind: 'bad_url', key: 'server.http.badUrl', values: { reason } });
  });

  it('refuses headers that belong to the connection and oversized ones', async () => {
    expect((await failure(allowed.request({ url: `${base}/echo`, headers: { Host: 'internal' } }))).kind).toBe('bad_request');
    expect((await failure(allowed.request({ url: `${base}/echo`, headers: { 'X-A': 'a\r\nInjected: 1' } }))).kind).toBe('bad_request');
    expect((await failure(allowed.request({ url: `${base}/echo`, headers: { 'X-A': 'a'.repeat(9000) } }))).kind).toBe('bad_request');
    expect((await failure(allowed.request({ url: `${base}/echo`, headers: { 'bad name': 'x' } }))).kind).toBe('bad_request');
  });

  describe('redirects', () => {
    it('follows them and reports the final URL', async () => {
      const res = await allowed.request({ url: `${base}/redirect?to=/json` });
      expect(res).toMatchObject({ status: 200, body: { ok: true, n: 1 }, url: `${base}/json`, redirects: 1 });
    });

    it('follows at most five', async () => {
      expect(await allowed.request({ url: `${base}/chain?n=5` })).toMatchObject({ status: 200, redirects: 5 });
      expect(await failure(allowed.request({ url: `${base}/chain?n=6` }))).toMatchObject({
        kind: 'too_many_redirects',
        key: 'server.http.tooManyRedirects',
        values: { limit: 5 },
      });
    });

    it.each([
      ['a private literal address', 'http://10.0.0.1/'],
      ['another loopback address', 'http://127.0.0.2:{port}/json'],
      ['a mapped loopback address', 'http://[::ffff:127.0.0.2]:{port}/json'],
      ['a name resolving to a private address', 'http://internal.test:{port}/json'],
      ['the metadata service', 'http://169.254.169.254/latest/meta-data/'],
    ])('refuses a redirect from an allowed host to %s', async (_what, target) => {
      const to = encodeURIComponent(target.replace('{port}', String(port)));
      expect((await failure(allowed.request({ url: `${base}/redirect?to=${to}` }))).kind).toBe('blocked_address');
      expect(counters.get('/json')).toBeUndefined();
    });

    it('refuses a redirect to another scheme', async () => {
      expect(await failure(allowed.request({ url: `${base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}` }))).toMatchObject({
        kind: 'bad_url',
        values: { reason: 'scheme' },
      });
    });

    it('turns a POST into a GET on 303 and keeps it on 307', async () => {
      const seeOther = await allowed.request({
        method: 'POST',
        url: `${base}/redirect?status=303&to=/echo`,
        body: 'payload',
        headers: { 'content-type': 'text/plain' },
      });
      expect(seeOther.body).toMatchObject({ method: 'GET', body: '' });
      expect((seeOther.body as { headers: Record<string, string> }).headers['content-type']).toBeUndefined();
      const temporary = await allowed.request({ method: 'POST', url: `${base}/redirect?status=307&to=/echo`, body: 'payload' });
      expect(temporary.body).toMatchObject({ method: 'POST', body: 'payload' });
    });

    it('drops credentials when a redirect leaves the origin', async () => {
      const headers = { Authorization: 'Bearer secret', 'X-Keep': 'yes' };
      const same = await allowed.request({ url: `${base}/redirect?to=/echo`, headers });
      expect((same.body as { headers: Record<string, string> }).headers.authorization).toBe('Bearer secret');
      const other = await allowed.request({ url: `${base}/redirect?to=${encodeURIComponent(`http://api.test:${port}/echo`)}`, headers });
      expect((other.body as { headers: Record<string, string> }).headers).toMatchObject({ 'x-keep': 'yes' });
      expect((other.body as { headers: Record<string, string> }).headers.authorization).toBeUndefined();
    });

    it('hands the redirect itself over when told not to follow', async () => {
      const res = await allowed.request({ url: `${base}/redirect?to=/json`, followRedirects: false });
      expect(res).toMatchObject({ status: 302, headers: { location: '/json' }, redirects: 0 });
    });
  });

  it('stops reading a body past the size cap', async () => {
    expect(await failure(allowed.request({ url: `${base}/big`, maxResponseBytes: 100_000 }))).toMatchObject({
      kind: 'too_large',
      key: 'server.http.tooLarge',
      values: { limit: 100_000 },
    });
    expect((await allowed.request({ url: `${base}/big`, maxResponseBytes: 200_000 })).body).toHaveLength(3 * 64 * 1024);
    expect((await failure(allowed.request({ url: `${base}/big-declared`, maxResponseBytes: 1000 }))).kind).toBe('too_large');
  });

  it('refuses an answer whose headers pass 64 KiB', async () => {
    expect(await failure(allowed.request({ url: `${base}/huge-head` }))).toMatchObject({ kind: 'too_large', values: { limit: 64 * 1024 } });
  });

  it('gives up after the time limit, waiting for headers or for the body', async () => {
    const started = Date.now();
    expect(await failure(allowed.request({ url: `${base}/slow`, timeoutMs: 200 }))).toMatchObject({
      kind: 'timeout',
      key: 'server.http.timeout',
      values: { seconds: 0.2 },
    });
    expect((await failure(allowed.request({ url: `${base}/slow-body`, timeoutMs: 200 }))).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops when the run is cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await failure(allowed.request({ url: `${base}/slow`, signal: controller.signal }))).toMatchObject({ kind: 'aborted', key: 'server.http.aborted' });
    const during = new AbortController();
    setTimeout(() => during.abort(), 100);
    expect((await failure(allowed.request({ url: `${base}/slow-body`, signal: during.signal }))).kind).toBe('aborted');
    expect((await failure(allowed.request({ url: `${base}/json`, signal: AbortSignal.abort() }))).kind).toBe('aborted');
  });
});
