import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { languageFrom, translate, type Language, type MessageValues } from '../i18n/messages';

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
    /** This request's text for a catalog key, in the caller's language. */
    t(key: string, values?: MessageValues): string;
  }
}

const requestIdPattern = /^[\w.:-]{1,128}$/;

/**
 * Takes the client's X-Request-Id when it is a sane token (the web app sends a timestamp-based one),
 * otherwise makes one, so a log line and a user's report can be matched. Used as Fastify's genReqId.
 */
export function requestIdFrom(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
}

/** Query parameters whose values authorise something: presigned S3 URLs (`X-Amz-Signature`,
 *  `X-Amz-Credential`, `X-Amz-Security-Token`), reset links (`token`), any other `sig`/`signature`. */
const secretQueryParam = /signature|^sig$|token|secret|password|credential/i;
/** A signed local direct-upload token: `<id>.<expiry>.<HMAC>` (storage/upload-tokens.ts). */
const directUploadToken = /(\/direct-upload\/)([^/?#]*)/;
export const REDACTED = '[redacted]';

/**
 * The URL as it may be written to the log. Logs are kept longer and read by more people than the
 * requests they describe, so a URL that is itself a credential (a signed upload URL, a reset link)
 * keeps what helps debugging (path, upload id, expiry) and loses what would let a reader replay it.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const pathPart = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt + 1);
  const path = pathPart.replace(directUploadToken, (_all, prefix: string, token: string) => {
    const parts = token.split('.');
    return prefix + (parts.length === 3 ? `${parts[0]}.${parts[1]}.${REDACTED}` : REDACTED);
  });
  if (!query) return queryAt === -1 ? path : `${path}?`;
  const params = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq === -1) return pair;
    let name = pair.slice(0, eq);
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // A malformed escape is logged as sent; only its value can be secret.
    }
    return secretQueryParam.test(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
  });
  return `${path}?${params.join('&')}`;
}

/** Per-request language, the X-Request-Id echo, and exactly one log line per request. */
export default fp(
  async (app) => {
    app.decorateRequest('language', 'en');
    app.decorateRequest('t', function (this: FastifyRequest, key: string, values?: MessageValues) {
      return translate(this.language, key, values);
    });

    app.addHook('onRequest', async (req, reply) => {
      req.language = languageFrom(req.headers['accept-language']);
      reply.header('x-request-id', req.id);
    });

    app.addHook('onResponse', async (req, reply) => {
      req.log.info(
        {
          method: req.method,
          url: redactUrl(req.url),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          user: req.user?.id,
        },
        'request',
      );
    });
  },
  { name: 'request-context' },
);
