import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { ValidationFailed, type Problem } from '../lib/errors';
import { findJsonFault, findNulCharacter, MAX_JSON_DEPTH, type JsonFault } from '../lib/json-values';

const faultKeys: Record<JsonFault['fault'], string> = {
  depth: 'server.validation.tooDeep',
  notFinite: 'server.validation.finite',
  notJson: 'server.validation.invalid',
};

/**
 * Non-finite numbers (after Ajv's coercion) and text holding the NUL character among a query's,
 * path's or form body's top-level values, by field.
 */
function fieldProblems(values: unknown, where: 'query' | 'path' | 'body'): Problem[] {
  if (values === null || typeof values !== 'object') return [];
  // Only plain records of fields (the query parser's objects have a null-prototype prototype), never
  // a Buffer or stream body.
  const proto: object | null = Object.getPrototypeOf(values);
  if (proto !== null && Object.getPrototypeOf(proto) !== null) return [];
  const problems: Problem[] = [];
  for (const [field, value] of Object.entries(values)) {
    const items: unknown[] = Array.isArray(value) ? value : [value];
    if (items.some((item) => typeof item === 'number' && !Number.isFinite(item))) problems.push({ key: 'server.validation.finite', loc: [where, field] });
    else if (items.some((item) => typeof item === 'string' && item.includes('\u0000')))
      problems.push({ key: 'server.validation.nulCharacter', loc: [where, field] });
  }
  return problems;
}

/**
 * Bounds on what any request may carry, checked once at the door for every route, so no service or
 * walk of stored values meets them later:
 * - a JSON body nested deeper than MAX_JSON_DEPTH, or holding a number JSON.parse made Infinity
 *   (`1e400`), is refused with 422 `{errors: [{msg, loc: ["body", ...where]}]}`;
 * - a query, path or form value that Ajv coerced to Infinity (`?page=1e309` passes `maximum`, which
 *   Ajv only checks on finite numbers) is refused the same way, after the schema has run;
 * - text holding the NUL character (`%00`, `"\u0000"`) anywhere in a body, query or path, which
 *   PostgreSQL cannot store (a 500 from the database otherwise), is refused the same way.
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
        if (fault)
          return done(new ValidationFailed([{ key: faultKeys[fault.fault], loc: ['body', ...fault.path], values: { max: MAX_JSON_DEPTH } }]), undefined);
        // JSON text can only carry U+0000 escaped, so most bodies skip the walk.
        const nul = (body as string).includes('\\u0000') ? findNulCharacter(value) : null;
        if (nul) return done(new ValidationFailed([{ key: 'server.validation.nulCharacter', loc: ['body', ...nul] }]), undefined);
        done(null, value);
      });
    });

    app.addHook('preHandler', async (req: FastifyRequest) => {
      // A JSON body was checked whole when parsed; a form body's strings may have been coerced since.
      const problems = [...fieldProblems(req.query, 'query'), ...fieldProblems(req.params, 'path'), ...fieldProblems(req.body, 'body')];
      if (problems.length) throw new ValidationFailed(problems);
    });
  },
  { name: 'input-bounds' },
);
