import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, logIn, newAccount, signedInUser, type TestApp } from '../test/test-app';

/** The API conventions of ARCHITECTURE.md and the error shapes of spec §7–8, across every route. */
describe('API conventions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('knows its routes, and has some of each kind', () => {
    expect(t.app.apiRoutes.filter((r) => r.public).length).toBeGreaterThan(3);
    expect(t.app.apiRoutes.filter((r) => !r.public).length).toBeGreaterThan(3);
  });

  // Generated from the route table, so every route a later issue adds is checked too.
  it('answers 401 {detail} on every secure route without a token, before validating anything', async () => {
    const secure = t.app.apiRoutes.filter((r) => !r.public);
    for (const route of secure) {
      const url = route.url.replace(/:(\w+)/g, 'some-$1');
      const res = await t.app.inject({
        method: route.method as 'GET',
        url,
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : { junk: true },
      });
      expect({ route: `${route.method} ${route.url}`, status: res.statusCode }).toEqual({ route: `${route.method} ${route.url}`, status: 401 });
      expect(typeof res.json().detail).toBe('string');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('answers 401 on every secure route for a made-up or malformed token', async () => {
    for (const route of t.app.apiRoutes.filter((r) => !r.public)) {
      for (const authorization of ['Bearer not-a-real-token', 'Basic dXNlcjpwYXNz', 'Bearer']) {
        const res = await t.app.inject({ method: route.method as 'GET', url: route.url.replace(/:(\w+)/g, 'x'), headers: { authorization } });
        expect(res.statusCode).toBe(401);
      }
    }
  });

  it('does not ask a token of public routes', async () => {
    for (const route of t.app.apiRoutes.filter((r) => r.public)) {
      const res = await t.app.inject({ method: route.method as 'GET', url: route.url, payload: route.method === 'GET' ? undefined : {} });
      expect([route.url, res.statusCode]).not.toEqual([route.url, 401]);
    }
  });

  it('reaches the same route with or without a trailing slash', async () => {
    const { auth } = await signedInUser(t.app);
    expect((await t.app.inject({ url: '/api/v1/users/me/', headers: auth })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: auth })).statusCode).toBe(200);
  });

  it('answers an unknown API route with 404 {detail}', async () => {
    const res = await t.app.inject({ url: '/api/v1/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not Found' });
  });

  it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
    const given = await t.app.inject({ url: '/api/v1/openapi.json', headers: { 'x-request-id': '1732000000000-abc123' } });
    expect(given.headers['x-request-id']).toBe('1732000000000-abc123');
    const hostile = await t.app.inject({ url: '/api/v1/openapi.json', headers: { 'x-request-id': 'bad id\nwith newline' } });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers malformed JSON with 400 {detail} and an unknown content type with 415 {detail}', async () => {
    const broken = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ detail: 'The request body is not valid JSON.' });
    const xml = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(415);
    expect(typeof xml.json().detail).toBe('string');
  });

  it('documents every API route in the OpenAPI document, with bearer security on secure ones', async () => {
    const res = await t.app.inject({ url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const route of t.app.apiRoutes.filter((r) => !r.url.endsWith('/openapi.json'))) {
      const openapiPath = route.url.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[openapiPath]?.[route.method.toLowerCase()];
      expect([route.method, route.url, Boolean(operation)]).toEqual([route.method, route.url, true]);
      expect(Boolean(operation.security)).toBe(!route.public);
    }
    expect((await t.app.inject({ url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  describe('anti-forgery pair', () => {
    it('hands out the XSRF-TOKEN cookie with the sign-in and sign-up answers, not with every API response', async () => {
      expect((await t.app.inject({ url: '/api/v1/openapi.json' })).headers['set-cookie']).toBeUndefined();
      expect((await t.app.inject({ url: '/api/v1/workflows/public' })).headers['set-cookie']).toBeUndefined();
      const account = newAccount();
      const signup = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: account });
      expect(signup.statusCode).toBe(201);
      expect(String(signup.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=[\w-]+; Path=\/; SameSite=Strict$/);
      const login = await logIn(t.app, account.email, account.password);
      expect(login.statusCode).toBe(200);
      expect(String(login.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=[\w-]+; Path=\/; SameSite=Strict$/);
      // A browser that already holds one keeps it.
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'XSRF-TOKEN=kept', 'x-xsrf-token': 'kept' },
        payload: new URLSearchParams({ username: account.email, password: account.password }).toString(),
      });
      expect(again.statusCode).toBe(200);
      expect(again.headers['set-cookie']).toBeUndefined();
    });

    it.each([
      ['a non-ASCII cookie', 'XSRF-TOKEN=%E2%82%AC', 'a'],
      ['a non-ASCII header of the same length in characters', 'XSRF-TOKEN=a', '\u00e9'],
      ['an empty header', 'XSRF-TOKEN=abc', ''],
    ])('answers 403 {detail}, not 500, for %s, on public writes too', async (_what, cookie, header) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { cookie, 'x-xsrf-token': header, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'username=a%40example.com&password=whatever',
      });
      expect(res.statusCode).toBe(403);
      expect(Object.keys(res.json())).toEqual(['detail']);
    });

    it('refuses a state change that carries the cookie without the matching header', async () => {
      const { auth } = await signedInUser(t.app);
      const cookie = 'XSRF-TOKEN=abc123';
      const without = await t.app.inject({ method: 'PATCH', url: '/api/v1/users/me/settings', headers: { ...auth, cookie }, payload: { theme: 'dark' } });
      expect(without.statusCode).toBe(403);
      expect(without.json().detail).toMatch(/could not be verified/);
      const matching = await t.app.inject({
        method: 'PATCH',
        url: '/api/v1/users/me/settings',
        headers: { ...auth, cookie, 'x-xsrf-token': 'abc123' },
        payload: { theme: 'dark' },
      });
      expect(matching.statusCode).toBe(200);
    });
  });
});

describe('unexpected errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 500 {detail: "Internal server error"} with no stack trace, and logs it with the request id', async () => {
    const lines: string[] = [];
    const { buildApp } = await import('../app');
    const pino = (await import('pino')).default;
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const app = await buildApp({ ...t.appOptions, logger: undefined, loggerInstance: logger });
    app.get('/api/v1/test-explodes', { config: { public: true } }, async () => {
      throw new Error('secret internals at /srv/app.ts:42');
    });
    const res = await app.inject({ url: '/api/v1/test-explodes', headers: { 'x-request-id': 'req-500-test' } });
    await app.close();
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ detail: 'Internal server error' });
    expect(res.body).not.toMatch(/secret|srv|stack/);
    const errorLine = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
    expect(errorLine).toMatchObject({ request_id: 'req-500-test', err: { message: 'secret internals at /srv/app.ts:42' } });
    const requestLine = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request');
    expect(requestLine).toMatchObject({ request_id: 'req-500-test', status: 500, method: 'GET' });
  });
});

describe('serving the web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Stepwise</title><div id="root"></div>');
    fs.writeFileSync(path.join(webDir, 'assets', 'app-1234.js'), 'console.log(1)');
    t = await createTestApp({ WEB_DIR: webDir, PUBLIC_URL: 'https://stepwise.test' });
  });
  afterAll(() => t.close());

  it('hands the page its XSRF-TOKEN cookie, Secure under an https PUBLIC_URL', async () => {
    const page = await t.app.inject({ url: '/login' });
    expect(String(page.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=[\w-]+; Path=\/; Secure; SameSite=Strict$/);
    expect((await t.app.inject({ url: '/assets/app-1234.js' })).headers['set-cookie']).toBeUndefined();
    expect((await t.app.inject({ url: '/login', headers: { cookie: 'XSRF-TOKEN=abc' } })).headers['set-cookie']).toBeUndefined();
  });

  it.each(['/', '/login', '/cn/login', '/cn', '/settings?tab=x'])('loads the app at %s (history fallback)', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed assets for a year and a missing one as 404, not as HTML', async () => {
    const asset = await t.app.inject({ url: '/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ url: '/assets/gone-999.js' })).statusCode).toBe(404);
  });

  it('still answers unknown API routes with JSON', async () => {
    const res = await t.app.inject({ url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not Found' });
  });
});
