import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ValidationFailed, wordsIn, type Problem } from '../lib/errors';
import { HttpError } from '../lib/http-error';
import { statusOf } from '../http/error-status';
import { isUniqueViolation } from '../lib/db-errors';
import { toValidationItems } from '../http/validation';

/**
 * Every error leaves in one of the shapes the client understands (spec §7, §8): validation →
 * 422 {errors:[{msg, loc}]}; anything meant for the user → {detail} (and maybe {modal});
 * anything unexpected → 500 {detail: "Internal server error"}, logged with the request id, never
 * a stack trace.
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | HttpError | DomainError | ValidationFailed, req, reply) => {
      try {
        return answer(error, req, reply);
      } catch (failure) {
        // Even describing the error failed (e.g. a missing catalog text): still no stack to the client.
        req.log.error({ err: failure, original: error }, 'error handler failed');
        return reply.code(500).send({ detail: 'Internal server error' });
      }
    });

    function answer(error: FastifyError | HttpError | DomainError | ValidationFailed, req: FastifyRequest, reply: FastifyReply) {
      if ('validation' in error && error.validation) {
        return reply.code(422).send({ errors: toValidationItems(error.validation, error.validationContext ?? 'body', req.language) });
      }
      if (error instanceof ValidationFailed) {
        return reply.code(422).send({ errors: error.problems.map((p) => validationItem(p, req)) });
      }
      if (error instanceof DomainError || error instanceof HttpError) {
        const status = error instanceof DomainError ? statusOf[error.kind] : error.statusCode;
        if (status === 401) reply.header('www-authenticate', 'Bearer');
        const modal = error instanceof DomainError ? error.modal : undefined;
        // A modal's content is a catalog key like the detail, read in the caller's language.
        return reply
          .code(status)
          .send({ detail: req.t(error.messageKey, error.values), ...(modal ? { modal: { ...modal, content: req.t(modal.content, error.values) } } : {}) });
      }
      if (isUniqueViolation(error)) {
        // Two requests raced for the same name or slot; the loser may simply try again.
        return reply.code(409).send({ detail: req.t('server.errors.conflict') });
      }
      const status = (error as FastifyError).statusCode ?? 500;
      if (status === 429) {
        return reply.code(429).send({ detail: req.t('server.errors.tooManyRequests') });
      }
      if (status >= 400 && status < 500) {
        // Fastify's and its plugins' own client errors (malformed JSON, unsupported media type, body
        // too large, a bad Content-Length): our own text, never theirs, which may quote the request.
        const key = knownClientErrors[error.code ?? ''] ?? clientErrorsByStatus[status] ?? 'server.errors.badRequest';
        return reply.code(status).send({ detail: req.t(key) });
      }
      req.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send({ detail: req.t('server.errors.internal') });
    }
  },
  { name: 'errors', dependencies: ['request-context'] },
);

const clientErrorsByStatus: Record<number, string> = {
  404: 'server.errors.notFound',
  413: 'server.errors.bodyTooLarge',
  415: 'server.errors.unsupportedMediaType',
};

const knownClientErrors: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'server.errors.unsupportedMediaType',
  FST_ERR_CTP_BODY_TOO_LARGE: 'server.errors.bodyTooLarge',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'server.errors.emptyJsonBody',
  FST_ERR_CTP_INVALID_JSON_BODY: 'server.errors.invalidJson',
  FST_ERR_BAD_URL: 'server.errors.badUrl',
  FST_ERR_MAX_PARAM_LENGTH: 'server.errors.urlTooLong',
};

/** `{msg, loc}` in the caller's language, with the field's `label` when the problem names one. */
function validationItem(problem: Problem, req: FastifyRequest): { msg: string; loc: (string | number)[]; label?: string } {
  const words = Object.fromEntries(Object.entries(problem.words ?? {}).map(([name, w]) => [name, wordsIn(w, req.language)]));
  const msg = req.t(problem.key, { ...problem.values, ...words });
  return problem.label ? { msg, loc: problem.loc, label: wordsIn(problem.label, req.language) } : { msg, loc: problem.loc };
}
