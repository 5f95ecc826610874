import zlib from 'node:zlib';
import { createTestApp, signedInUser, type TestApp } from '../test/test-app';

// API answers of 1 KB and more travel compressed when the client accepts it; the step catalogue
// is revalidated by its ETag (304, no body) instead of sent again; a file download stays as stored.

describe('compressed answers and the cached catalogue', () => {
  let t: TestApp;
  let auth: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp();
    auth = (await signedInUser(t.app)).auth;
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { ...auth, ...headers } });

  it('sends a large answer with brotli, or gzip, as the client accepts, and as it is to a client that accepts neither', async () => {
    const plain = await get('/workflow-step-infos/categorized');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(10_000);

    const br = await get('/workflow-step-infos/categorized', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const unpacked = zlib.brotliDecompressSync(br.rawPayload).toString();
    expect(JSON.parse(unpacked)).toEqual(plain.json());
    // The catalogue is text repeated many times over: a fraction of its size on the wire.
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 3);

    const gzip = await get('/workflow-step-infos/categorized', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves a small answer as it is', async () => {
    const me = await get('/users/me', { 'accept-encoding': 'br, gzip' });
    expect(me.statusCode).toBe(200);
    expect(me.body.length).toBeLessThan(1024);
    expect(me.headers['content-encoding']).toBeUndefined();
  });

  it('answers the catalogue with an ETag to revalidate on every use, and 304 without a body while it is unchanged', async () => {
    const first = await get('/workflow-step-infos/?page_size=100');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await get('/workflow-step-infos/?page_size=100', { 'if-none-match': etag });
    expect([again.statusCode, again.body]).toEqual([304, '']);
    // Another language is another answer: another tag.
    const chinese = await get('/workflow-step-infos/?page_size=100', { 'if-none-match': etag, 'accept-language': 'zh-CN' });
    expect(chinese.statusCode).toBe(200);
    expect(chinese.headers.etag).not.toBe(etag);
  });
});
