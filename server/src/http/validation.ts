import type { FastifySchemaValidationError } from 'fastify/types/schema';
import { translate, type Language } from '../i18n/messages';

/** Fastify's names for the parts of a request, as the client's `loc` names them (FastAPI style). */
const locationNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

export interface ValidationItem {
  msg: string;
  loc: (string | number)[];
}

const pathSegments = (instancePath: string): (string | number)[] =>
  instancePath
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));

/**
 * Turns Ajv's errors into the spec's `{msg, loc}` items, in the caller's language. `loc` names the
 * request part then the field, e.g. ["body", "email"], so the client can point at the field.
 */
export function toValidationItems(errors: FastifySchemaValidationError[], context: string, language: Language): ValidationItem[] {
  const where = locationNames[context] ?? context;
  const items: ValidationItem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const params = (error.params ?? {}) as Record<string, unknown>;
    const loc: (string | number)[] = [where, ...pathSegments(error.instancePath)];
    let key: string;
    let values: Record<string, string | number> = {};
    switch (error.keyword) {
      case 'required':
        loc.push(String(params.missingProperty));
        key = 'server.validation.required';
        break;
      case 'additionalProperties':
        loc.push(String(params.additionalProperty));
        key = 'server.validation.unknownField';
        break;
      case 'minLength':
        key = params.limit === 1 ? 'server.validation.empty' : 'server.validation.minLength';
        values = { limit: Number(params.limit) };
        break;
      case 'maxLength':
        key = 'server.validation.maxLength';
        values = { limit: Number(params.limit) };
        break;
      case 'minimum':
      case 'maximum':
        key = `server.validation.${error.keyword}`;
        values = { limit: Number(params.limit) };
        break;
      case 'minProperties':
        key = 'server.validation.minProperties';
        break;
      case 'pattern':
        // `\S` is how our schemas say "not only spaces"; other patterns get the generic text.
        key = params.pattern === '\\S' ? 'server.validation.blank' : 'server.validation.pattern';
        break;
      case 'format':
        key = params.format === 'email' ? 'server.validation.email' : 'server.validation.format';
        values = { format: String(params.format) };
        break;
      case 'enum':
        key = 'server.validation.enum';
        values = { values: ((params.allowedValues as unknown[]) ?? []).join(', ') };
        break;
      case 'const':
        key = 'server.validation.enum';
        values = { values: String(params.allowedValue) };
        break;
      case 'type':
        key = 'server.validation.type';
        values = { type: String(params.type) };
        break;
      default:
        key = 'server.validation.invalid';
    }
    const msg = translate(language, key, values);
    const id = `${loc.join('.')}|${msg}`;
    if (!seen.has(id)) {
      seen.add(id);
      items.push({ msg, loc });
    }
  }
  return items;
}
