import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../test/test-app';
import { API_CSP, DOCS_CSP, WEB_APP_CSP } from './security-headers';

// Issue 7, "Headers": the app, the API docs and the API each answer with a CSP that fits them,
// nosniff and no framing. (The browser journeys check the app really works under its policy.)

describe('security headers', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Stepwise</title><div id="root"></div>');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-AbC123.js'), 'console.log(1)');
    t = await createTestApp({ WEB_DIR: webDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const directives = (csp: string | string[] | number | undefined) =>
    Object.fromEntries(
      String(csp)
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );

  it.each(['/', '/login', '/cn/files/x', '/assets/index-AbC123.js'])('the web app at %s: scripts from our origin only, no framing, no plugins', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe(WEB_APP_CSP);
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https:']);
    // Tutorial videos: files over https, and only the YouTube (privacy-enhanced) and Vimeo players framed.
    expect(csp['media-src']).toEqual(["'self'", 'https:']);
    expect(csp['frame-src']).toEqual(["'self'", 'blob:', 'https://www.youtube-nocookie.com', 'https://player.vimeo.com']);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it.each([
    ['GET', '/api/v1/workflows/public'],
    ['GET', '/api/v1/users/me'],
    ['GET', '/api/v1/nothing-here'],
    ['POST', '/api/v1/auth/login'],
  ])('the API (%s %s) answers with a policy that lets nothing load', async (method, url) => {
    const res = await t.app.inject({ method: method as 'GET' | 'POST', url });
    expect(res.headers['content-security-policy']).toBe(API_CSP);
    expect(directives(res.headers['content-security-policy'])).toEqual({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the API docs get a policy the Swagger UI works under', async () => {
    const page = await t.app.inject({ url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/);
    expect(page.headers['content-security-policy']).toBe(DOCS_CSP);
    const csp = directives(page.headers['content-security-policy']);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    const asset = await t.app.inject({ url: '/api/docs/static/swagger-initializer.js' });
    expect(asset.headers['content-security-policy']).toBe(DOCS_CSP);
  });

  it('does not pin https on a plain-http deployment', async () => {
    const res = await t.app.inject({ url: '/' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('pins https when the public URL is https', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://stepwise.example.com' });
    try {
      const res = await secure.app.inject({ url: '/api/v1/workflows/public' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await secure.close();
    }
  });
});
