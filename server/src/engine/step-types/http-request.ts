import type { JsonRecord, JsonValue, RowColumn } from '../datasets';
import { translate } from '../../i18n/messages';
import {
  hasIdempotencyKey,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKey,
  OutboundHttpError,
  recordKeyPart,
  stepRunLimits,
  withRetries,
  type HttpMethod,
  type OutboundResponse,
} from '../outbound-http';
import type { ParamValues } from '../params';
import { expectInputs, findColumn, RECORD_ID, resolveParams } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import { StepRunFailed } from '../runners/execute';
import { newColumnName } from '../runners/columns';
import type { Column, PerRecordRunner, RunContext, Vars } from '../runners/types';
import { asText, checkReferences, renderBody, renderText, renderUrl, type Scope } from '../runners/per-record/templates';
import type { StepType, StepTypeDescription } from './step-type';

const description: StepTypeDescription = {
  id: 'http_request',
  name: 'HTTP request',
  description:
    "Call a web API (REST endpoint, webhook or URL) for each record and store the response in a new column: look up data from another service, send records to it, or trigger actions. The URL and body can include the record's values.",
  category: 'enrich',
  tags: ['http', 'api', 'webhook', 'per-record'],
  params: [
    {
      name: 'method',
      type: 'enum',
      label: 'Method',
      help: 'GET reads; POST, PUT and PATCH send the body; DELETE removes.',
      required: false,
      default: 'GET',
      options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    },
    {
      name: 'url',
      type: 'template',
      label: 'URL',
      help: 'The address to call, e.g. https://api.example.com/customers/{{field.customer_id}}. Values placed into the URL are URL-encoded, except a reference the URL starts with, which is used as it is: a whole address ({{field.link}}) or a base ({{var.api_base}}/customers/{{field.id}}).',
      required: true,
      max_length: 2000,
    },
    {
      name: 'headers',
      type: 'json',
      label: 'Headers',
      help: 'A JSON object of extra request headers, e.g. {"Accept": "application/json"}. Values may use {{field.…}} and {{var.…}}.',
      required: false,
      default: {},
    },
    {
      name: 'body',
      type: 'template',
      label: 'Body',
      help: 'What to send with POST, PUT or PATCH, usually JSON, e.g. {"email": "{{field.email}}"}. In a JSON body a value is escaped for JSON, and a string that is one reference alone ("{{field.age}}") becomes the value with its type (a number stays a number); the body is then sent as application/json.',
      required: false,
      default: '',
      max_length: 20_000,
    },
    {
      name: 'auth_secret',
      type: 'secret',
      label: 'Access token',
      help: 'Sent as "Authorization: Bearer …". Pick a secret variable ({{var.name}}) so the token is not stored in the step.',
      required: false,
    },
    {
      name: 'output_column',
      type: 'string',
      label: 'Response column',
      help: 'The column that receives the response body: parsed when it is JSON, else its text (at most 1 MiB). Two more columns are added: <column>_status (the HTTP status code) and <column>_error (why the call failed, empty when it worked).',
      required: false,
      default: 'response',
      max_length: 120,
    },
    {
      name: 'timeout_seconds',
      type: 'number',
      label: 'Time limit (seconds)',
      help: 'A call that takes longer fails for that record.',
      required: false,
      default: 30,
      min: 1,
      max: 120,
      integer: true,
    },
    {
      name: 'concurrency',
      type: 'number',
      label: 'Calls at once',
      help: 'How many calls may be in flight at the same time (1 to 32).',
      required: false,
      default: 8,
      min: 1,
      max: 32,
      integer: true,
    },
    {
      name: 'rate_limit_per_second',
      type: 'number',
      label: 'Calls per second',
      help: 'At most this many calls start per second, so the other service is not flooded; 0 means no limit. Busy answers (429 and 5xx) and network errors are retried up to twice for GET, PUT and DELETE, waiting as the server’s Retry-After asks.',
      required: false,
      default: 0,
      min: 0,
      max: 1000,
    },
    {
      name: 'continue_on_error',
      type: 'boolean',
      label: 'Keep going on errors',
      help: 'On: a failed call (no answer, or an HTTP status of 400 or more) stores the error in the row and the run goes on. Off: the first failure stops the step.',
      required: false,
      default: true,
    },
    {
      name: 'idempotency_key',
      type: 'boolean',
      label: 'Send an Idempotency-Key',
      help: 'On: each call carries an Idempotency-Key header made from this run of the step and the record, the same every time that record is called again (a retry, a resume, a restart), so a service that honours the header does the work once. An Idempotency-Key set under Headers is sent instead. Off: no such header.',
      required: false,
      default: true,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'record', credits: 0.1, note: 'Per call made.' },
  i18n: {
    'zh-CN': {
      name: 'HTTP 请求',
      description:
        '对每条记录调用一个 Web API（REST 接口、Webhook 或网址），并把响应存入新列：从其他服务查询数据、把记录发送过去或触发操作。URL 和请求体中可以插入该记录的值。',
      params: {
        method: { label: '请求方法', help: 'GET 用于读取；POST、PUT 和 PATCH 会发送请求体；DELETE 用于删除。' },
        url: {
          label: 'URL',
          help: '要调用的地址，例如 https://api.example.com/customers/{{field.customer_id}}。插入 URL 的值会经过 URL 编码；但 URL 开头的引用按原样使用：完整地址（{{field.link}}）或基础地址（{{var.api_base}}/customers/{{field.id}}）。',
        },
        headers: { label: '请求头', help: '额外请求头组成的 JSON 对象，例如 {"Accept": "application/json"}。值中可以使用 {{field.…}} 和 {{var.…}}。' },
        body: {
          label: '请求体',
          help: '随 POST、PUT 或 PATCH 发送的内容，通常为 JSON，例如 {"email": "{{field.email}}"}。在 JSON 请求体中，值会按 JSON 转义；只含一个引用的字符串（"{{field.age}}"）会替换为保留原类型的值（数字仍是数字），请求体以 application/json 发送。',
        },
        auth_secret: { label: '访问令牌', help: '以 "Authorization: Bearer …" 发送。请选择一个密钥变量（{{var.name}}），这样令牌不会保存在步骤里。' },
        output_column: {
          label: '响应列',
          help: '存放响应体的列：JSON 响应会被解析，否则保存其文本（最多 1 MiB）。另外还会添加两列：<列名>_status（HTTP 状态码）和 <列名>_error（调用失败的原因，成功时为空）。',
        },
        timeout_seconds: { label: '时限（秒）', help: '超过该时间的调用对该记录算作失败。' },
        concurrency: { label: '同时调用数', help: '同一时间最多进行多少个调用（1 到 32）。' },
        rate_limit_per_second: {
          label: '每秒调用数',
          help: '每秒最多发起这么多调用，以免压垮对方服务；0 表示不限制。对 GET、PUT 和 DELETE，繁忙响应（429 和 5xx）与网络错误最多重试两次，并按服务器的 Retry-After 等待。',
        },
        continue_on_error: {
          label: '出错时继续',
          help: '开启：调用失败（没有响应，或 HTTP 状态码为 400 及以上）时把错误写入该行，运行继续。关闭：第一次失败就停止该步骤。',
        },
        idempotency_key: {
          label: '发送 Idempotency-Key',
          help: '开启：每次调用都带有 Idempotency-Key 请求头，由该步骤的本次运行和该记录生成；同一条记录再次调用时（重试、继续、重启）它都相同，支持该请求头的服务只会执行一次。若在“请求头”中设置了 Idempotency-Key，则改为发送你设置的值。关闭：不发送该请求头。',
        },
      },
      cost_note: '按实际调用次数计费。',
    },
  },
};

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
 * With `idempotency_key` (default on) every call carries `Idempotency-Key: idempotencyKey(stepRunId,
 * [record _id])`, the same on every attempt for that record of that step run (its retries here, a
 * batch redone after a crash, a resume, a retry of the step or of its failed records), unless the
 * step's own headers name one. The key does not make a POST retried here: only the receiver knows
 * whether it honours the header.
 *
 * Each record's call is checkpointed as soon as it finished (`ctx.calls`, engine/run/call-journal.ts),
 * before its batch is stored: a batch redone after a pause, a cancel and retry, a crash or a killed
 * worker takes those results instead of calling again, so the calls repeated are at most the ones in
 * flight at that moment (at most `concurrency`), and each of those carries the same Idempotency-Key.
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
  idempotencyKey: boolean;
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
  const params = resolveParams(description, scalars, vars);
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
  if (typeof params.idempotency_key !== 'boolean') throw paramProblem(['idempotency_key'], 'server.params.boolean');
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
    idempotencyKey: params.idempotency_key,
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

/**
 * The request for one record: templates filled, the token as a Bearer header, the record's
 * Idempotency-Key unless the step's headers (as rendered) name one.
 */
function requestFor(plan: HttpPlan, scope: Scope, stepRunId: string) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(plan.headers)) headers[renderText(name, scope)] = renderText(asText(value), scope);
  if (plan.idempotencyKey && !hasIdempotencyKey(headers)) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey(stepRunId, [recordKeyPart(scope.record, RECORD_ID)]);
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

function aborted(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The run was stopped', 'AbortError');
}

const runner: PerRecordRunner = {
  kind: 'per-record',
  output: 'append',
  outputColumns(inputs, params, vars) {
    expectInputs(inputs, 1, 1);
    return [...inputs[0], ...appended(httpPlan(inputs[0], params, vars))];
  },
  appendedColumns: (input, params, vars) => appended(httpPlan(input, params, vars)),
  batchSize: () => HTTP_BATCH_SIZE,
  overlapBatches: true,

  async processBatch(ctx: RunContext, records, params) {
    if (ctx.signal.aborted) throw aborted(ctx.signal);
    if (records.length === 0) return { rows: [] };
    // The records' own keys are the input's columns (the engine checked the params against the
    // input with `appendedColumns` before the run); this check only guards the output names.
    const columns: Column[] = [...new Set(records.flatMap((r) => Object.keys(r)))].map((name) => ({ name, type: 'UNKNOWN' }));
    const plan = httpPlan(columns, params, ctx.vars);
    // The step run's, shared by its batches (two run at once: `overlapBatches`).
    const { rate, calls: limiter } = stepRunLimits(ctx.stepRunId, { perSecond: plan.perSecond, concurrency: plan.concurrency });
    // Stops the calls still in flight once one failure has failed the batch (or the run stops).
    const stop = new AbortController();
    const onAbort = () => stop.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const failedIds: string[] = [];
    // Calls of this batch that finished before it was stopped or its worker died: not made again.
    const finished = await ctx.calls.finished(records.map((r) => String(r[RECORD_ID])));

    const callOne = async (record: JsonRecord): Promise<JsonRecord> => {
      const id = record[RECORD_ID];
      const earlier = finished.get(String(id));
      if (earlier) {
        // Paid for when it was made, unless its batch's usage was never stored: the same key counts once.
        if (earlier.row[plan.columns.status] !== null) ctx.usage({ kind: 'step.http_request.call', quantity: 1, key: String(id) });
        if (earlier.failed && typeof id === 'string') failedIds.push(id);
        return earlier.row;
      }
      const row: JsonRecord = { [RECORD_ID]: id, [plan.columns.body]: null, [plan.columns.status]: null, [plan.columns.error]: null };
      let error: string;
      let host = '';
      try {
        // Built once: every retry below sends these very headers, the Idempotency-Key included.
        const request = requestFor(plan, { record, vars: ctx.vars }, ctx.stepRunId);
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
              ctx.log('server.runLog.retry', { what: { key: 'server.runLog.record', values: { id: String(id) } }, attempt, reason, ms: Math.round(delayMs) }),
          },
        );
        // A call that got an answer is work done, whatever it answered.
        ctx.usage({ kind: 'step.http_request.call', quantity: 1, key: String(id) });
        row[plan.columns.body] = bodyValue(response);
        row[plan.columns.status] = response.status;
        if (response.status < 400) {
          await ctx.calls.record(String(id), { row, failed: false });
          return row;
        }
        error = translate('en', 'server.http.status', { host: new URL(response.url).hostname, status: response.status });
      } catch (err) {
        if (stop.signal.aborted) throw ctx.signal.aborted ? aborted(ctx.signal) : err;
        if (!(err instanceof OutboundHttpError)) throw err;
        error = translate('en', err.key, { host, ...err.values });
      }
      row[plan.columns.error] = error;
      if (!plan.continueOnError) throw new StepRunFailed(`record “${String(id)}”: ${error}`, error);
      await ctx.calls.record(String(id), { row, failed: true });
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

export const httpRequest: StepType = { description, runner, cacheable: false, billing: 'records', outsideCalls: 'http' };
