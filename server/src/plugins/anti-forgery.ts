import { randomBytes, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import cookie from '@fastify/cookie';
import { HttpError } from '../lib/http-error';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyReply {
    /** Hands the browser its XSRF-TOKEN cookie unless it has one: the web app's HTML and the sign-in answers. */
    issueXsrfToken(): FastifyReply;
  }
}

/**
 * Compared as bytes: a cookie may decode to non-ASCII text ("%E2%82%AC" is "€", one character and
 * three bytes), and timingSafeEqual throws on buffers of different lengths.
 */
function same(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The double-submit pair the web client sends (spec §7): we hand out a random XSRF-TOKEN cookie
 * (readable by our own scripts, SameSite=Strict), and a state-changing request that carries the
 * cookie must echo it in X-XSRF-TOKEN. Requests without the cookie (API clients, curl) are not
 * browsers riding on our cookies, and our auth is a bearer header anyway, so they pass.
 *
 * The cookie is set only where the web app needs it (its HTML, and the sign-in and sign-up answers
 * for a front end served from elsewhere in development), not minted on every API response; it is
 * `Secure` when PUBLIC_URL is https.
 */
export default fp(
  async (app) => {
    await app.register(cookie);
    const secure = app.config.publicUrl.startsWith('https:');
    app.decorateReply('issueXsrfToken', function (this: FastifyReply) {
      if (!this.request.cookies[XSRF_COOKIE]) {
        this.setCookie(XSRF_COOKIE, randomBytes(18).toString('base64url'), { path: '/', sameSite: 'strict', httpOnly: false, secure });
      }
      return this;
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
