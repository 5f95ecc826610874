import { translate } from '../../i18n/messages';
import { OutboundHttpError, isJsonContentType, type OutboundResponse } from '../outbound-http';
import type { ParamValues } from '../params';
import { paramProblem } from '../runners/errors';
import { StepRunFailed } from '../runners/execute';
import type { RunContext } from '../runners/types';
import { PAGE_PAGINATIONS } from './json-page';
import { enumOf } from './source-dataset';

/** A JSON API read page by page (import_http_json): the request, the records in each answer and where the next page is. */

export const HTTP_SOURCE_LIMITS = { maxPages: 1000, maxRecords: 1_000_000, maxHeaders: 50 } as const;
export const PAGINATIONS = PAGE_PAGINATIONS;

/** `{{var.NAME}}` in a URL or header: the variable's value (URL-encoded in URLs); anything else refused at the param. */
export function renderTemplate(text: string, vars: RunContext['vars'], loc: (string | number)[], encode: boolean): string {
  return text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (whole, inside: string) => {
    const m = /^var\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(inside);
    if (!m || !Object.prototype.hasOwnProperty.call(vars, m[1])) throw paramProblem(loc, 'server.steps.unresolvedReference', { reference: whole });
    const value = vars[m[1]];
    const textValue = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    return encode ? encodeURIComponent(textValue) : textValue;
  });
}

export function textParam(params: ParamValues, name: string, max: number): string {
  const value = params[name] ?? '';
  if (typeof value !== 'string' || value.length > max) throw paramProblem([name], 'server.params.maxLength', { limit: max });
  return value.trim();
}

/** The Link header's rel="next" address, if any. */
export function nextFromLinkHeader(header: string | undefined): string | null {
  for (const part of (header ?? '').split(',')) {
    const m = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (m && /rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(m[2])) return m[1];
  }
  return null;
}

export const withoutQuery = (url: string) => url.replace(/[?#].*$/, '');

export interface HttpPlan {
  url: string;
  headers: Record<string, string>;
  recordsPath: string;
  pagination: (typeof PAGINATIONS)[number];
  pageParam: string;
  nextPath: string;
  maxPages: number;
}

export function httpPlan(params: ParamValues, vars: RunContext['vars']): HttpPlan {
  const url = textParam(params, 'url', 2000);
  if (!url) throw paramProblem(['url'], 'server.params.required');
  const headerValues = params.headers ?? {};
  if (!headerValues || typeof headerValues !== 'object' || Array.isArray(headerValues) || Object.keys(headerValues).length > HTTP_SOURCE_LIMITS.maxHeaders)
    throw paramProblem(['headers'], 'server.steps.httpHeaders', { limit: HTTP_SOURCE_LIMITS.maxHeaders });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(headerValues)) {
    if (typeof value !== 'string') throw paramProblem(['headers', name], 'server.steps.httpHeaders', { limit: HTTP_SOURCE_LIMITS.maxHeaders });
    headers[name] = renderTemplate(value, vars, ['headers', name], false);
  }
  const maxPages = params.max_pages;
  if (typeof maxPages !== 'number' || !Number.isSafeInteger(maxPages)) throw paramProblem(['max_pages'], 'server.params.integer');
  if (maxPages < 1) throw paramProblem(['max_pages'], 'server.params.minimum', { limit: 1 });
  if (maxPages > HTTP_SOURCE_LIMITS.maxPages) throw paramProblem(['max_pages'], 'server.params.maximum', { limit: HTTP_SOURCE_LIMITS.maxPages });
  const pagination = enumOf(params, 'pagination', PAGINATIONS);
  const pageParam = textParam(params, 'page_param', 100);
  if ((pagination === 'page' || pagination === 'cursor') && !pageParam) throw paramProblem(['page_param'], 'server.params.required');
  const nextPath = textParam(params, 'next_path', 200);
  if (pagination === 'cursor' && !nextPath) throw paramProblem(['next_path'], 'server.params.required');
  return {
    url: renderTemplate(url, vars, ['url'], true),
    headers,
    recordsPath: textParam(params, 'records_path', 200),
    pagination,
    pageParam,
    nextPath,
    maxPages,
  };
}

/**
 * One page's answer, its JSON left as bytes for the step to read off the event loop when it is
 * large (json-page-reader.ts).
 */
export async function fetchJson(ctx: RunContext, url: string, headers: Record<string, string>): Promise<OutboundResponse & { body: Buffer }> {
  let response: OutboundResponse;
  try {
    response = await ctx.http.request({ method: 'GET', url, headers: { accept: 'application/json', ...headers }, signal: ctx.signal, parseJson: false });
  } catch (err) {
    if (err instanceof OutboundHttpError) throw new StepRunFailed(`GET ${withoutQuery(url)}: ${translate('en', err.key, err.values)}`, err);
    throw err;
  }
  if (response.status >= 400) throw new StepRunFailed(`GET ${withoutQuery(url)} answered HTTP ${response.status}`, null);
  const body = response.body;
  if (!isJsonContentType(response.headers['content-type']) || !Buffer.isBuffer(body) || body.length === 0) throw notJson(url, response);
  return { ...response, body };
}

/** The answer is not JSON by its type, or its text does not parse. */
export const notJson = (url: string, response: OutboundResponse) =>
  new StepRunFailed(`GET ${withoutQuery(url)} did not answer JSON (Content-Type: ${response.headers['content-type'] ?? 'none'})`, null);
