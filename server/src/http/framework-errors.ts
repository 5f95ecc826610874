import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { languageFrom, translate } from '../i18n/messages';
import { HttpError } from '../lib/http-error';
import { API_PREFIX, type RouteInfo } from '../plugins/authentication';
import { redactUrl } from '../plugins/request-context';

/** What the router refuses before any route runs, as status and catalog key (never the path itself). */
const routerErrors: Record<string, { status: number; key: string }> = {
  FST_ERR_BAD_URL: { status: 400, key: 'server.errors.badUrl' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, key: 'server.errors.urlTooLong' },
};

const patternOf = (url: string) =>
  new RegExp(
    `^${url
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}/?$`,
  );

/**
 * Fastify's `frameworkErrors`: a path parameter it cannot decode (400) or over `maxParamLength`
 * (414) is refused by the router, before hooks, so without this it answers its own
 * `{error, code, message}` body with the path in it, and before authentication. Here it answers
 * `{detail}` in the caller's language, and a path that only secure routes could serve is first
 * asked for a valid token (401), as every secure route does.
 */
export function frameworkErrorHandler(appOf: () => FastifyInstance) {
  let patterns: { route: RouteInfo; pattern: RegExp }[] | null = null;

  const onlySecureRoutesFit = (method: string, url: string) => {
    const path = url.split('?')[0];
    if (!path.startsWith(`${API_PREFIX}/`)) return false;
    patterns ??= appOf().apiRoutes.map((route) => ({ route, pattern: patternOf(route.url) }));
    const fitting = patterns.filter(({ route, pattern }) => route.method === method && pattern.test(path));
    return fitting.length > 0 && fitting.every(({ route }) => !route.public);
  };

  const answer = async (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const language = languageFrom(req.headers['accept-language']);
    const send = (status: number, key: string) => {
      // The request-context hooks never ran for this request: its one log line is written here.
      req.log.info({ method: req.method, url: redactUrl(req.url), status }, 'request');
      return reply
        .code(status)
        .header('x-request-id', req.id)
        .send({ detail: translate(language, key) });
    };
    try {
      if (onlySecureRoutesFit(req.method, req.url)) {
        try {
          await appOf().authenticate(req);
        } catch (failure) {
          if (!(failure instanceof HttpError) || failure.statusCode !== 401) throw failure;
          reply.header('www-authenticate', 'Bearer');
          return send(401, failure.messageKey);
        }
      }
      const known = routerErrors[error.code];
      if (known) return send(known.status, known.key);
      req.log.error({ err: error }, 'framework error');
      return send(500, 'server.errors.internal');
    } catch (failure) {
      req.log.error({ err: failure, original: error }, 'framework error handler failed');
      return send(500, 'server.errors.internal');
    }
  };

  // Fastify calls this without awaiting it; `answer` catches everything itself.
  return (error: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    void answer(error, req, reply);
  };
}
