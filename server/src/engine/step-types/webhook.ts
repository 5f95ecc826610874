import type { StepType, StepTypeDescription } from './step-type';
import { createHmac } from 'node:crypto';
import {
  checkUrl,
  hasIdempotencyKey,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKey,
  limits as httpLimits,
  OutboundHttpError,
  recordKeyPart,
  requestWithRetries,
} from '../outbound-http';
import type { OutboundResponse } from '../outbound-http';
import type { ParamValues } from '../params';
import { RECORD_ID, resolveParams } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import { StepRunFailed } from '../runners/execute';
import type { Column, SinkResult, SinkRunner, Vars } from '../runners/types';
import { one, booleanValue, integerValue, optionalText, renderText } from '../sinks/sink-params';
import { PAGE_RECORDS, pagesOf } from '../sinks/sink-output';

const description: StepTypeDescription = {
  id: 'webhook',
  name: 'Send to webhook',
  description:
    "Send (POST) the table's records as JSON to a web address: a webhook of Zapier, Make, Slack, your own app or any API that receives data, in chunks of records or all at once. The records pass on unchanged.",
  category: 'output',
  tags: ['webhook', 'http', 'api', 'post', 'send', 'output'],
  params: [
    {
      name: 'url',
      type: 'template',
      label: 'URL',
      help: 'The address to send to, e.g. https://hooks.example.com/orders?month={{var.month}}.',
      required: true,
      max_length: 2000,
    },
    {
      name: 'records_per_request',
      type: 'number',
      label: 'Records per request',
      help: 'How many records each request carries (1 to 1000).',
      required: false,
      default: 100,
      min: 1,
      max: 1000,
      integer: true,
    },
    {
      name: 'all_in_one_request',
      type: 'boolean',
      label: 'All records in one request',
      help: 'On: one request with every record (at most 10 MB of JSON). Off: a request per chunk of records.',
      required: false,
      default: false,
    },
    {
      name: 'secret_header',
      type: 'string',
      label: 'Secret header name',
      help: 'The request header that carries the secret below, e.g. Authorization or X-Api-Key.',
      required: false,
      default: 'Authorization',
      max_length: 128,
    },
    {
      name: 'secret',
      type: 'secret',
      label: 'Secret',
      help: 'Sent as the value of the secret header, e.g. "Bearer abc…". Pick a secret variable ({{var.name}}) so it is not stored in the step.',
      required: false,
    },
    {
      name: 'signing_secret',
      type: 'secret',
      label: 'Signing secret',
      help: 'When set, each request carries X-Stepwise-Signature: t=<unix time>,v1=<HMAC-SHA256 of "<t>.<body>" in hex>, so the receiver can check it came from you.',
      required: false,
    },
    {
      name: 'timeout_seconds',
      type: 'number',
      label: 'Time limit (seconds)',
      help: 'A request that takes longer counts as failed (and is retried).',
      required: false,
      default: 30,
      min: 1,
      max: 120,
      integer: true,
    },
    {
      name: 'idempotency_key',
      type: 'boolean',
      label: 'Send an Idempotency-Key',
      help: 'On: each request carries an Idempotency-Key header made from this run of the step and the records the request carries, the same every time that request is sent again (a retry, a resume, a restart), so a receiver that honours the header takes it once. A secret header named Idempotency-Key is sent instead. Off: no such header.',
      required: false,
      default: true,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '发送到 Webhook',
      description:
        '把表中的记录以 JSON 形式发送（POST）到一个网址：Zapier、Make、Slack、你自己的应用或任何接收数据的 API 的 Webhook，可分批发送或一次发送全部。记录原样传给下一步。',
      params: {
        url: { label: 'URL', help: '发送到的地址，例如 https://hooks.example.com/orders?month={{var.month}}。' },
        records_per_request: { label: '每次请求的记录数', help: '每个请求携带多少条记录（1 到 1000）。' },
        all_in_one_request: { label: '一次请求发送全部记录', help: '开启：用一个请求发送所有记录（JSON 最多 10 MB）。关闭：每批记录一个请求。' },
        secret_header: { label: '密钥请求头名称', help: '携带下方密钥的请求头，例如 Authorization 或 X-Api-Key。' },
        secret: { label: '密钥', help: '作为密钥请求头的值发送，例如 "Bearer abc…"。请选择一个密钥变量（{{var.name}}），这样它不会保存在步骤里。' },
        signing_secret: {
          label: '签名密钥',
          help: '设置后，每个请求都带有 X-Stepwise-Signature: t=<Unix 时间>,v1=<"<t>.<请求体>" 的 HMAC-SHA256 十六进制值>，接收方可据此确认请求来自你。',
        },
        timeout_seconds: { label: '时限（秒）', help: '超过该时间的请求算作失败（并会重试）。' },
        idempotency_key: {
          label: '发送 Idempotency-Key',
          help: '开启：每个请求都带有 Idempotency-Key 请求头，由该步骤的本次运行和该请求携带的记录生成；同一个请求再次发送时（重试、继续、重启）它都相同，支持该请求头的接收方只会接收一次。若密钥请求头名为 Idempotency-Key，则改为发送该密钥。关闭：不发送该请求头。',
        },
      },
      cost_note: '免费。',
    },
  },
};

/** Retries of one webhook request: 429 and 5xx answers and network errors, honouring Retry-After. */
export const WEBHOOK_RETRIES = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 } as const;
export const SIGNATURE_HEADER = 'X-Stepwise-Signature';
/** Only the status matters, but the answer is read whole: a chatty receiver's 2xx must not fail the step. */
const WEBHOOK_MAX_ANSWER_BYTES = 1024 * 1024;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;

function webhookPlan(inputs: Column[][], stored: ParamValues, vars?: Vars) {
  const columns = one(inputs);
  const params = resolveParams(description, stored, vars);
  const perRequest = integerValue(params, 'records_per_request', 1, 1000);
  const allInOne = booleanValue(params, 'all_in_one_request');
  const timeoutSeconds = integerValue(params, 'timeout_seconds', 1, 120);
  const secretHeader = optionalText(params, 'secret_header') ?? 'Authorization';
  if (!HEADER_NAME.test(secretHeader)) throw paramProblem(['secret_header'], 'server.steps.headerName', { name: secretHeader.slice(0, 64) });
  const secret = optionalText(params, 'secret');
  const signingSecret = optionalText(params, 'signing_secret');
  const sendIdempotencyKey = booleanValue(params, 'idempotency_key');
  if (typeof params.url !== 'string' || !params.url.trim()) throw paramProblem(['url'], 'server.params.required');
  let url: string | null = null;
  if (vars) {
    url = renderText(params.url, vars, 'url').trim();
    try {
      checkUrl(url);
    } catch (err) {
      if (err instanceof OutboundHttpError) throw paramProblem(['url'], err.key, err.values);
      throw err;
    }
  }
  return { columns, perRequest, allInOne, timeoutMs: timeoutSeconds * 1000, secretHeader, secret, signingSecret, sendIdempotencyKey, url };
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as Stripe signs: the time in the signed text stops replays. */
export function webhookSignature(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const runner: SinkRunner = {
  kind: 'sink',
  outputColumns: (inputs, params, vars) => webhookPlan(inputs, params, vars).columns,
  async run(ctx, inputs, params): Promise<SinkResult> {
    const plan = webhookPlan([inputs[0]?.columns ?? []], params, ctx.vars);
    const [input] = inputs;
    const maxBody = httpLimits.maxRequestBodyBytes;
    const pageSize = plan.allInOne ? PAGE_RECORDS : plan.perRequest;
    // An empty table sends nothing: a receiver would only learn that there was nothing to learn.
    const requests = input.rowCount === 0 ? 0 : plan.allInOne ? 1 : Math.ceil(input.rowCount / plan.perRequest);
    const tooLarge = () =>
      new StepRunFailed(`The request body would exceed ${maxBody} bytes`, null, { key: 'server.steps.webhookTooLarge', values: { limit: maxBody } });
    let sent = 0;
    let records = 0;
    let lastStatus: number | null = null;

    /**
     * `ids` name the records the request carries, in order: with the step run's id they make its
     * Idempotency-Key, the same on every retry here and whenever the step run sends that chunk
     * again (its input is an immutable snapshot, so a retried step run cuts the same chunks).
     */
    const send = async (recordsJson: string, ids: string[]) => {
      const count = ids.length;
      const request = sent + 1;
      // Delivered before this try was stopped or its worker died (ctx.calls): not sent again.
      const callKey = `request-${request}`;
      const delivered = (await ctx.calls.finished([callKey])).get(callKey);
      if (delivered) {
        sent++;
        records += count;
        lastStatus = Number(delivered.row.status);
        ctx.log('server.runLog.webhookDeliveredBefore', { request, requests, status: lastStatus });
        return;
      }
      // The delivery id is the same when a request is retried, so a receiver can drop repeats.
      const body = `{"delivery_id":${JSON.stringify(`${ctx.stepRunId}-${request}`)},"request":${request},"requests":${requests},"records":[${recordsJson}]}`;
      if (Buffer.byteLength(body) > maxBody) throw tooLarge();
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (plan.secret !== null) headers[plan.secretHeader] = plan.secret;
      if (plan.sendIdempotencyKey && !hasIdempotencyKey(headers)) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey(ctx.stepRunId, ids);
      if (plan.signingSecret !== null) headers[SIGNATURE_HEADER] = webhookSignature(plan.signingSecret, body, Math.floor(Date.now() / 1000));
      let attempts = 0;
      let response: OutboundResponse;
      try {
        response = await requestWithRetries(
          { request: (r) => (attempts++, ctx.http.request(r)) },
          { method: 'POST', url: plan.url!, headers, body, timeoutMs: plan.timeoutMs, maxResponseBytes: WEBHOOK_MAX_ANSWER_BYTES, signal: ctx.signal },
          {
            ...WEBHOOK_RETRIES,
            // A webhook POST is meant to be delivered at least once; the delivery id and the
            // Idempotency-Key (one request, so the same headers on every attempt) dedupe.
            retryNonIdempotent: true,
            onRetry: ({ attempt, delayMs, reason }) => ctx.log('server.runLog.webhookRetry', { request, attempt, reason, ms: Math.round(delayMs) }),
          },
        );
      } catch (err) {
        ctx.signal.throwIfAborted();
        if (err instanceof OutboundHttpError) throw new StepRunFailed(`Webhook request ${request}: ${err.kind}`, err, { key: err.key, values: err.values });
        throw err;
      }
      lastStatus = response.status;
      if (response.status < 200 || response.status > 299) {
        throw new StepRunFailed(`The webhook answered ${response.status} to request ${request}`, null, {
          key: 'server.steps.webhookStatus',
          values: { status: response.status, request, requests, attempts },
        });
      }
      await ctx.calls.record(callKey, { row: { status: response.status, records: count }, failed: false });
      sent++;
      records += count;
      ctx.log('server.runLog.webhookSent', { request, requests, count, status: response.status });
    };

    ctx.progress({ done: 0, total: input.rowCount, phase: 'sending' });
    const pending: string[] = [];
    const pendingIds: string[] = [];
    let pendingBytes = 0;
    for await (const page of pagesOf(ctx, input, pageSize)) {
      if (!plan.allInOne) {
        await send(
          page.map((r) => JSON.stringify(r)).join(','),
          page.map((r) => recordKeyPart(r, RECORD_ID)),
        );
        continue;
      }
      for (const record of page) {
        const json = JSON.stringify(record);
        pendingBytes += Buffer.byteLength(json) + 1;
        // Checked while gathering, so a table far over the limit is refused without holding it all.
        if (pendingBytes > maxBody) throw tooLarge();
        pending.push(json);
        pendingIds.push(recordKeyPart(record, RECORD_ID));
      }
    }
    if (plan.allInOne && pending.length) await send(pending.join(','), pendingIds);
    if (!requests) ctx.log('server.runLog.webhookNothing');
    ctx.progress({ done: input.rowCount, total: input.rowCount });
    return { summary: { requests: sent, records, last_status: lastStatus } };
  },
};

export const webhook: StepType = { description, runner, cacheable: false, billing: 'run', outsideCalls: 'http' };
