import type { JsonRecord, JsonValue, RowColumn } from '../../datasets';
import { translate } from '../../../i18n/messages';
import { ConcurrencyLimiter, OutboundHttpError, RateLimiter, withRetries, type HttpMethod, type OutboundResponse } from '../../outbound-http';
import type { ParamValues } from '../../params';
import { expectInputs, findColumn, RECORD_ID, resolveParams } from '../columns';
import { paramProblem } from '../errors';
import { StepRunFailed } from '../execute';
import { newColumnName } from '../transform';
import type { Column, PerRecordRunner, RunContext, Vars } from '../types';
import { asText, checkReferences, renderBody, renderText, renderUrl, type Scope } from './templates';

/**
 * The HTTP request step (`step-types/http-request.ts`): one call per record through `ctx.http`
 * (the operator's address policy, redirects re-checked, size and time caps), `concurrency` at
 * once and at most `rate_limit_per_second` started, retried on 429/5xx/network errors when the
 * method is idempotent (`withRetries`, honouring Retry-After). Output `append`, three columns:
 *
 * - `<output_column>` JSON: the parsed body when the answer is JSON, else its text (a JSON string);
 * - `<output_column>_status` BIGINT: the HTTP status, NULL when no answer came;
 * - `<output_column>_error` VARCHAR: why the call failed (English, like the run's log), NULL when it worked.
 *
 * A call fails when no answer comes or its status is 400 or more. With `continue_on_error` the row
 * keeps the error and its `_id` goes in `failedIds` (a retry of failed records redoes it); without,
 * the batch fails with StepRunFailed naming the record.
 */

export const HTTP_BATCH_SIZE = 50;
/** Per response: a dataset cell is no place for more, and 50 of them per batch stay in memory. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const WITH_BODY = new Set<HttpMethod>(['POST', 'PUT', 'PATCH']);

interface HttpPlan {
  method: HttpMethod;
  url: string;
  headers: Record<string, unknown>;
  body: string;
  authSecret: string;
  columns: { body: string; status: string; error: string };
  timeoutMs: number;
  continueOnError: boolean;
  concurrency: number;
  perSecond: number;
}

function integerIn(params: ParamValues, name: string, min: number, max: number): number {
  const value = params[name];
  if (typeof value !== 'number' || !Number.isInteger(value)) throw paramProblem([name], 'server.params.integer');
  if (value < min) throw paramProblem([name], 'server.params.minimum', { limit: min });
  if (value > max) throw paramProblem([name], 'server.params.maximum', { limit: max });
  return value;
}

/**
 * The params, checked against the input's columns. The text params that embed references (url,
 * headers, body) are read as stored: `resolveParams` would take a URL that is one `{{field.link}}`
 * for a variable it cannot find.
 */
function httpPlan(columns: Column[], stored: ParamValues, vars: Vars | undefined): HttpPlan {
  const { url, headers, body, ...scalars } = stored;
  const params = resolveParams('http_request', scalars, vars);
  const method = params.method as HttpMethod;
  if (!METHODS.includes(method)) throw paramProblem(['method'], 'server.params.enum', { values: METHODS.join(', ') });
  if (typeof url !== 'string' || !url.trim()) throw paramProblem(['url'], 'server.params.required');
  checkReferences(url, columns, vars, ['url']);
  const headerValues = headers ?? {};
  if (typeof headerValues !== 'object' || Array.isArray(headerValues) || headerValues === null) throw paramProblem(['headers'], 'server.params.json');
  for (const [name, value] of Object.entries(headerValues)) checkReferences(`${name}${asText(value)}`, columns, vars, ['headers', name]);
  const bodyText = body ?? '';
  if (typeof bodyText !== 'string') throw paramProblem(['body'], 'server.params.string');
  checkReferences(bodyText, columns, vars, ['body']);
  const authSecret = params.auth_secret ?? '';
  if (typeof authSecret !== 'string') throw paramProblem(['auth_secret'], 'server.params.string');
  checkReferences(authSecret, columns, vars, ['auth_secret']);
  const name = newColumnName(params.output_column, ['output_column']);
  const names = { body: name, status: `${name}_status`, error: `${name}_error` };
  for (const added of Object.values(names)) {
    newColumnName(added, ['output_column']);
    if (findColumn(columns, added)) throw paramProblem(['output_column'], 'server.steps.duplicateOutput', { column: added });
  }
  if (typeof params.continue_on_error !== 'boolean') throw paramProblem(['continue_on_error'], 'server.params.boolean');
  const perSecond = params.rate_limit_per_second;
  if (typeof perSecond !== 'number' || !Number.isFinite(perSecond)) throw paramProblem(['rate_limit_per_second'], 'server.params.number');
  if (perSecond < 0) throw paramProblem(['rate_limit_per_second'], 'server.params.minimum', { limit: 0 });
  if (perSecond > 1000) throw paramProblem(['rate_limit_per_second'], 'server.params.maximum', { limit: 1000 });
  return {
    method,
    url,
    headers: headerValues as Record<string, unknown>,
    body: bodyText,
    authSecret,
    columns: names,
    timeoutMs: integerIn(params, 'timeout_seconds', 1, 120) * 1000,
    continueOnError: params.continue_on_error,
    concurrency: integerIn(params, 'concurrency', 1, 32),
    perSecond,
  };
}

function appended(plan: HttpPlan): RowColumn[] {
  return [
    { name: plan.columns.body, type: 'JSON' },
    { name: plan.columns.status, type: 'BIGINT' },
    { name: plan.columns.error, type: 'VARCHAR' },
  ];
}

/** The request for one record: templates filled, the token as a Bearer header. */
function requestFor(plan: HttpPlan, scope: Scope) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(plan.headers)) headers[renderText(name, scope)] = renderText(asText(value), scope);
  const token = renderText(plan.authSecret, scope).trim();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | object | undefined;
  if (WITH_BODY.has(plan.method) && plan.body.trim()) {
    const rendered = renderBody(plan.body, scope);
    if (rendered.json) {
      body = JSON.stringify(rendered.value);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    } else body = rendered.text;
  }
  return { method: plan.method, url: renderUrl(plan.url, scope), headers, body };
}

function bodyValue(response: OutboundResponse): JsonValue {
  if (response.json) return response.body as JsonValue;
  return Buffer.isBuffer(response.body) ? response.body.toString('utf8') : asText(response.body);
}

/**
 * One token bucket per step run, so the rate holds across its batches (a bucket per batch would
 * let each batch's first call go at once). Bounded: the oldest runs' buckets are forgotten.
 */
const rateLimiters = new Map<string, { perSecond: number; limiter: RateLimiter }>();
const MAX_RATE_LIMITERS = 256;

function rateLimiterFor(stepRunId: string, perSecond: number): RateLimiter {
  const known = rateLimiters.get(stepRunId);
  if (known && known.perSecond === perSecond) return known.limiter;
  const limiter = new RateLimiter({ perSecond });
  rateLimiters.delete(stepRunId);
  rateLimiters.set(stepRunId, { perSecond, limiter });
  if (rateLimiters.size > MAX_RATE_LIMITERS) rateLimiters.delete(rateLimiters.keys().next().value!);
  return limiter;
}

function aborted(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The run was stopped', 'AbortError');
}

export const httpRequestRunner: PerRecordRunner = {
  stepType: 'http_request',
  kind: 'per-record',
  output: 'append',
  outputColumns(inputs, params, vars) {
    expectInputs(inputs, 1, 1);
    return [...inputs[0], ...appended(httpPlan(inputs[0], params, vars))];
  },
  appendedColumns: (input, params, vars) => appended(httpPlan(input, params, vars)),
  batchSize: () => HTTP_BATCH_SIZE,

  async processBatch(ctx: RunContext, records, params) {
    if (ctx.signal.aborted) throw aborted(ctx.signal);
    if (records.length === 0) return { rows: [] };
    // The records' own keys are the input's columns (the engine checked the params against the
    // input with `appendedColumns` before the run); this check only guards the output names.
    const columns: Column[] = [...new Set(records.flatMap((r) => Object.keys(r)))].map((name) => ({ name, type: 'UNKNOWN' }));
    const plan = httpPlan(columns, params, ctx.vars);
    const limiter = new ConcurrencyLimiter(plan.concurrency);
    const rate = rateLimiterFor(ctx.stepRunId, plan.perSecond);
    // Stops the calls still in flight once one failure has failed the batch (or the run stops).
    const stop = new AbortController();
    const onAbort = () => stop.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const failedIds: string[] = [];

    const callOne = async (record: JsonRecord): Promise<JsonRecord> => {
      const id = record[RECORD_ID];
      const row: JsonRecord = { [RECORD_ID]: id, [plan.columns.body]: null, [plan.columns.status]: null, [plan.columns.error]: null };
      let error: string;
      let host = '';
      try {
        const request = requestFor(plan, { record, vars: ctx.vars });
        host = safeHost(request.url);
        const response = await withRetries(
          async () => {
            await rate.take(stop.signal);
            return ctx.http.request({ ...request, timeoutMs: plan.timeoutMs, maxResponseBytes: MAX_RESPONSE_BYTES, signal: stop.signal });
          },
          {
            method: plan.method,
            signal: stop.signal,
            onRetry: ({ attempt, delayMs, reason }) =>
              ctx.log(`record “${String(id)}”: attempt ${attempt} got ${reason}, retrying in ${Math.round(delayMs)} ms`),
          },
        );
        // A call that got an answer is work done, whatever it answered.
        ctx.usage({ kind: 'step.http_request.call', quantity: 1, key: String(id) });
        row[plan.columns.body] = bodyValue(response);
        row[plan.columns.status] = response.status;
        if (response.status < 400) return row;
        error = translate('en', 'server.http.status', { host: new URL(response.url).hostname, status: response.status });
      } catch (err) {
        if (stop.signal.aborted) throw ctx.signal.aborted ? aborted(ctx.signal) : err;
        if (!(err instanceof OutboundHttpError)) throw err;
        error = translate('en', err.key, { host, ...err.values });
      }
      row[plan.columns.error] = error;
      if (!plan.continueOnError) throw new StepRunFailed(`record “${String(id)}”: ${error}`, error);
      if (typeof id === 'string') failedIds.push(id);
      return row;
    };

    try {
      const rows = await Promise.all(
        records.map((record) =>
          limiter.run(async () => {
            if (stop.signal.aborted) throw ctx.signal.aborted ? aborted(ctx.signal) : new Error('batch stopped');
            return callOne(record).catch((err: unknown) => {
              stop.abort(err);
              throw err;
            });
          }),
        ),
      );
      return failedIds.length ? { rows, failedIds } : { rows };
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  },
};

function safeHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
