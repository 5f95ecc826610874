import type { JsonRecord } from '../../datasets';
import { placeholdersIn, type Reference } from '../../references';
import { findColumn, unknownColumn } from '../columns';
import { paramProblem } from '../errors';
import type { Column, Vars } from '../types';

/**
 * `{{field.NAME}}` and `{{var.NAME}}` inside a per-record step's text params (URL, headers, body),
 * filled in for each record. The reference syntax is `references.ts`'s, so what the form accepts
 * is what runs. Field names match the input's columns as DuckDB does (case-insensitively).
 */

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const WHOLE = /^\s*\{\{([^{}]*)\}\}\s*$/;

/** Where a reference's value comes from, for one record. */
export interface Scope {
  record: JsonRecord;
  vars: Vars;
}

/** Checks every reference in `text` against the input's columns (and the variables, when known); `loc` names the param. */
export function checkReferences(text: string, columns: Column[], vars: Vars | undefined, loc: (string | number)[]): void {
  const { references, malformed } = placeholdersIn(text);
  if (malformed.length) throw paramProblem(loc, 'server.params.badReference', { reference: malformed[0] });
  for (const reference of references) {
    if (reference.kind === 'field' && !findColumn(columns, reference.name)) {
      throw unknownColumn(loc, reference.name, columns);
    }
    if (reference.kind === 'var' && vars && !Object.prototype.hasOwnProperty.call(vars, reference.name)) {
      throw paramProblem(loc, 'server.steps.unresolvedReference', { reference: `{{var.${reference.name}}}` });
    }
  }
}

function lookup(reference: Reference, scope: Scope): unknown {
  if (reference.kind === 'var') return scope.vars[reference.name];
  if (Object.prototype.hasOwnProperty.call(scope.record, reference.name)) return scope.record[reference.name];
  const lower = reference.name.toLowerCase();
  const key = Object.keys(scope.record).find((k) => k.toLowerCase() === lower);
  return key === undefined ? null : scope.record[key];
}

/** A value as text: null → empty, text as is, anything else as JSON (numbers, booleans, lists, objects). */
export function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

/** The text with each reference replaced by `encode(its value as text, the reference)`. */
export function renderText(template: string, scope: Scope, encode: (text: string, reference: Reference) => string = (t) => t): string {
  return template.replace(PLACEHOLDER, (whole, inside: string) => {
    const reference = placeholdersIn(whole).references[0];
    return reference ? encode(asText(lookup(reference, scope)), reference) : `{{${inside}}}`;
  });
}

/** The value of a text that is one reference alone (with its type), or undefined when it is not one. */
function wholeValue(template: string, scope: Scope): { value: unknown } | undefined {
  const match = WHOLE.exec(template);
  const reference = match ? placeholdersIn(`{{${match[1]}}}`).references[0] : undefined;
  return reference ? { value: lookup(reference, scope) } : undefined;
}

/**
 * A URL: values go in URL-encoded (a name with `/`, `?` or `&` stays inside its path segment or
 * query value), except a reference the URL starts with, which is the address itself or its base
 * (`{{field.link}}`, `{{var.api_base}}/customers/{{field.id}}`) and goes in as it is.
 */
export function renderUrl(template: string, scope: Scope): string {
  const text = template.trim();
  const leading = /^\{\{([^{}]*)\}\}/.exec(text);
  const reference = leading ? placeholdersIn(leading[0]).references[0] : undefined;
  if (!leading || !reference) return renderText(text, scope, encodeURIComponent);
  return asText(lookup(reference, scope)) + renderText(text.slice(leading[0].length), scope, encodeURIComponent);
}

/**
 * A body: a template that is JSON is filled in as JSON (each string rendered; a string that is one
 * reference alone becomes the value with its own type), so quotes in a value cannot break it.
 * Any other template is filled in as text.
 */
export function renderBody(template: string, scope: Scope): { json: true; value: unknown } | { json: false; text: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(template);
  } catch {
    return { json: false, text: renderText(template, scope) };
  }
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const whole = wholeValue(value, scope);
      return whole ? (whole.value ?? null) : renderText(value, scope);
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [renderText(k, scope), fill(v)]));
    return value;
  };
  return { json: true, value: fill(parsed) };
}
