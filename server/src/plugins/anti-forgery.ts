import { randomBytes, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import { HttpError } from '../lib/http-error';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The double-submit pair the web client sends (spec §7): we hand out a random XSRF-TOKEN cookie
 * (readable by our own scripts, SameSite=Strict), and a state-changing request that carries the
 * cookie must echo it in X-XSRF-TOKEN. Requests without the cookie (API clients, curl) are not
 * browsers riding on our cookies, and our auth is a bearer header anyway, so they pass.
 */
export default fp(
  async (app) => {
    await app.register(cookie);
    app.addHook('onRequest', async (req, reply) => {
      if (!req.cookies[XSRF_COOKIE]) {
        reply.setCookie(XSRF_COOKIE, randomBytes(18).toString('base64url'), { path: '/', sameSite: 'strict', httpOnly: false });
      }
    });
    // preValidation: after the token check (401 comes first), before the body is looked at.
    app.addHook('preValidation', async (req) => {
      const cookieToken = req.cookies[XSRF_COOKIE];
      if (!cookieToken || !UNSAFE.has(req.method) || !req.url.startsWith('/api/')) return;
      const headerToken = req.headers[XSRF_HEADER];
      if (typeof headerToken !== 'string' || !same(headerToken, cookieToken)) {
        throw new HttpError(403, 'server.errors.antiForgery');
      }
    });
  },
  { name: 'anti-forgery', dependencies: ['request-context'] },
);
