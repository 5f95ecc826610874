import type { FastifyInstance } from 'fastify';
import { createTestApp, signedInUser, type TestApp } from '../test/test-app';
import { redactUrl } from './request-context';

describe('request log lines', () => {
  let t: TestApp;
  let app: FastifyInstance;
  const lines: string[] = [];
  const requestLines = () => lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');

  beforeAll(async () => {
    t = await createTestApp();
    const { buildApp } = await import('../app');
    const pino = (await import('pino')).default;
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    // A second app on the same database and storage folder, whose log we can read.
    app = await buildApp({ ...t.appOptions, logger: undefined, loggerInstance: logger });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });
  beforeEach(() => {
    lines.length = 0;
  });

  it('never writes the signature of a direct-upload URL, yet keeps which upload it was', async () => {
    const { auth } = await signedInUser(app);
    const prepared = await app.inject({ method: 'POST', url: '/api/v1/files/prepare-upload', headers: auth, payload: { name: 'a.bin', size: 3 } });
    const target = prepared.json();
    const [id, expiry, mac] = target.url.split('/').pop().split('.');
    expect(mac).toMatch(/^[\w-]{43}$/);

    const put = await app.inject({ method: 'PUT', url: target.url, headers: target.headers, payload: Buffer.from('abc') });
    expect(put.statusCode).toBe(200);

    const logged = requestLines().find((l) => l.method === 'PUT');
    expect(logged).toMatchObject({ status: 200, url: `/api/v1/files/direct-upload/${id}.${expiry}.[redacted]` });
    expect(lines.join('\n')).not.toContain(mac);
  });

  it('never writes signature, credential or token query parameters', async () => {
    const secret = 'f00dfacef00dfacef00dfacef00dface';
    await app.inject({ url: `/api/v1/openapi.json?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=${secret}&X-Amz-Expires=900` });
    await app.inject({ url: `/reset-password?token=${secret}` });
    await app.inject({ url: `/api/v1/openapi.json?signature=${secret}&page=2` });

    expect(requestLines().map((l) => l.url)).toEqual([
      '/api/v1/openapi.json?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=[redacted]&X-Amz-Expires=900',
      '/reset-password?token=[redacted]',
      '/api/v1/openapi.json?signature=[redacted]&page=2',
    ]);
    expect(lines.join('\n')).not.toContain(secret);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/api/v1/files', '/api/v1/files'],
    ['/api/v1/files/direct-upload/abc.123.xyz?x=1', '/api/v1/files/direct-upload/abc.123.[redacted]?x=1'],
    ['/api/v1/files/direct-upload/not-a-token', '/api/v1/files/direct-upload/[redacted]'],
    ['/x?X-Amz-Security-Token=abc&X-Amz-Credential=AKIA%2F20250101', '/x?X-Amz-Security-Token=[redacted]&X-Amz-Credential=[redacted]'],
    ['/x?access_token=abc&q=token', '/x?access_token=[redacted]&q=token'],
    ['/x?Sig=abc&flag', '/x?Sig=[redacted]&flag'],
    ['/x?%73ignature=abc', '/x?%73ignature=[redacted]'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
