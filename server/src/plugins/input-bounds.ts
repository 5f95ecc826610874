import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { ValidationFailed, type Problem } from '../lib/errors';
import { findJsonFault, MAX_JSON_DEPTH, type JsonFault } from '../lib/json-values';

const faultKeys: Record<JsonFault['fault'], string> = {
  depth: 'server.validation.tooDeep',
  notFinite: 'server.validation.finite',
  notJson: 'server.validation.invalid',
};

/** Non-finite numbers among a query's, path's or form body's top-level values (after Ajv's coercion), by field. */
function nonFinite(values: unknown, where: 'query' | 'path' | 'body'): Problem[] {
  if (values === null || typeof values !== 'object') return [];
  // Only plain records of fields (the query parser's objects have a null-prototype prototype), never
  // a Buffer or stream body.
  const proto: object | null = Object.getPrototypeOf(values);
  if (proto !== null && Object.getPrototypeOf(proto) !== null) return [];
  const problems: Problem[] = [];
  for (const [field, value] of Object.entries(values)) {
    const items: unknown[] = Array.isArray(value) ? value : [value];
    if (items.some((item) => typeof item === 'number' && !Number.isFinite(item))) problems.push({ key: 'server.validation.finite', loc: [where, field] });
  }
  return problems;
}

/**
 * Bounds on what any request may carry, checked once at the door for every route, so no service or
 * walk of stored values meets them later:
 * - a JSON body nested deeper than MAX_JSON_DEPTH, or holding a number JSON.parse made Infinity
 *   (`1e400`), is refused with 422 `{errors: [{msg, loc: ["body", ...where]}]}`;
 * - a query, path or form value that Ajv coerced to Infinity (`?page=1e309` passes `maximum`, which
 *   Ajv only checks on finite numbers) is refused the same way, after the schema has run.
 * Fastify's own JSON parsing (empty body, malformed text, `__proto__` poisoning) stays as it is.
 */
export default fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      void parseJson(req, body as string, (error: Error | null, value?: unknown) => {
        if (error) return done(error, undefined);
        const fault = findJsonFault(value);
        if (fault) return done(new ValidationFailed([{ key: faultKeys[fault.fault], loc: ['body', ...fault.path], values: { max: MAX_JSON_DEPTH } }]), undefined);
        done(null, value);
      });
    });

    app.addHook('preHandler', async (req: FastifyRequest) => {
      // A JSON body was checked whole when parsed; a form body's strings may have been coerced since.
      const problems = [...nonFinite(req.query, 'query'), ...nonFinite(req.params, 'path'), ...nonFinite(req.body, 'body')];
      if (problems.length) throw new ValidationFailed(problems);
    });
  },
  { name: 'input-bounds' },
);
