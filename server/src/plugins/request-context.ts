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
          url: req.url,
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
