import { createHmac } from 'node:crypto';
import { translate } from '../../i18n/messages';
import { DomainError, ValidationFailed } from '../../lib/errors';
import type { ParamValues } from '../params';
import { idempotencyKey } from '../outbound-http';
import { StepRunFailed } from '../runners';
import { MemoryCallJournal } from '../../test/engine/per-record-test-context';
import { base, contextFor, empty, failure, hits, many, messageOf, people, received, run, sink, strict, useSinkTestbed } from '../../test/engine/sink-testbed';

// The sinks on real DuckDB over Parquet snapshots in a local storage folder, and the webhook
// against a real HTTP server on 127.0.0.1.

useSinkTestbed();

describe('webhook', () => {
  const bodies = () => received.map((r) => JSON.parse(r.body) as { delivery_id: string; request: number; requests: number; records: { n: number }[] });

  it('posts the records as JSON in chunks, in order, and sums up what it sent', async () => {
    const out = await run('webhook', { url: `${base}/hook?m={{var.month}}`, records_per_request: 100 }, many, { month: '2024-03' });
    expect(received.map((r) => [r.path, r.headers['content-type']])).toEqual([
      ['/hook?m=2024-03', 'application/json'],
      ['/hook?m=2024-03', 'application/json'],
      ['/hook?m=2024-03', 'application/json'],
    ]);
    const sent = bodies();
    expect(sent.map((b) => [b.request, b.requests, b.records.length, b.delivery_id])).toEqual([
      [1, 3, 100, `${out.ctx.stepRunId}-1`],
      [2, 3, 100, `${out.ctx.stepRunId}-2`],
      [3, 3, 50, `${out.ctx.stepRunId}-3`],
    ]);
    expect(sent.flatMap((b) => b.records.map((r) => r.n))).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(Object.keys(sent[0].records[0])).toEqual(['_id', 'n']);
    expect(out.result.summary).toEqual({ requests: 3, records: 250, last_status: 200 });
  });

  it('sends everything in one request when asked, and nothing for an empty table', async () => {
    const one = await run('webhook', { url: `${base}/hook`, all_in_one_request: true }, many);
    expect(bodies().map((b) => [b.request, b.requests, b.records.length])).toEqual([[1, 1, 250]]);
    expect(one.result.summary).toEqual({ requests: 1, records: 250, last_status: 200 });
    received.length = 0;
    const none = await run('webhook', { url: `${base}/hook` }, empty);
    expect(received).toEqual([]);
    expect(none.result.summary).toEqual({ requests: 0, records: 0, last_status: null });
  });

  it('sends the secret header and a signature the receiver can verify', async () => {
    await run('webhook', { url: `${base}/hook`, secret_header: 'X-Api-Key', secret: '{{var.key}}', signing_secret: 'whsec_test' }, people, { key: 'k-123' });
    const [request] = received;
    expect(request.headers['x-api-key']).toBe('k-123');
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-stepwise-signature']));
    expect(match).not.toBeNull();
    const [, t, v1] = match!;
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60);
    expect(v1).toBe(createHmac('sha256', 'whsec_test').update(`${t}.${request.body}`).digest('hex'));
    expect(JSON.parse(request.body).records.map((r: { name: string }) => r.name)).toEqual(['Ada', '李雷', 'Ärger', "O'Brien"]);
  });

  it('retries a 429 and carries on', async () => {
    const out = await run('webhook', { url: `${base}/limited`, records_per_request: 2 });
    expect(received.map((r) => JSON.parse(r.body).request)).toEqual([1, 1, 2]);
    expect(out.result.summary).toEqual({ requests: 2, records: 4, last_status: 200 });
    expect(out.logs[0]).toMatch(/^Webhook request 1: attempt 1 failed \(status 429\), retrying in 0 ms$/);
  });

  it('fails naming the status when the webhook keeps answering 500', async () => {
    const err = (await failure(run('webhook', { url: `${base}/broken` }))) as DomainError;
    expect(err).toBeInstanceOf(StepRunFailed);
    expect(messageOf(err)).toBe('The webhook answered 500 to request 1 of 1, after 4 attempt(s).');
    expect(received.length).toBe(4);
  });

  it('refuses private addresses under the default address policy', async () => {
    const err = (await failure(run('webhook', { url: `${base}/hook` }, people, {}, strict))) as DomainError;
    expect(err).toBeInstanceOf(StepRunFailed);
    expect(messageOf(err)).toBe(
      'Calls to 127.0.0.1 are not allowed: it leads to a private, local or reserved address (127.0.0.1). An administrator can allow it with HTTP_STEPS_ALLOWED_HOSTS.',
    );
    expect(received).toEqual([]);
  });

  it('refuses a bad URL, header name or chunk size at the param', () => {
    const check = (params: ParamValues) => {
      try {
        sink('webhook').outputColumns([people.columns], params, {});
      } catch (err) {
        return (err as ValidationFailed).problems.map((p) => [p.loc, translate('en', p.key, p.values)]);
      }
      return [];
    };
    expect(check({ url: 'ftp://example.com/x' })[0][0]).toEqual(['url']);
    expect(check({ url: 'https://example.com', secret_header: 'Bad Header' })).toEqual([
      [['secret_header'], '“Bad Header” cannot be a header name: use letters, digits and - only.'],
    ]);
    expect(check({ url: 'https://example.com', records_per_request: 1001 })).toEqual([
      [['records_per_request'], translate('en', 'server.params.maximum', { limit: 1000 })],
    ]);
  });

  it('stops when the run is cancelled', async () => {
    const test = contextFor();
    test.abort.abort(new Error('cancelled'));
    await expect(sink('webhook').run(test.ctx, [many], { url: `${base}/hook` })).rejects.toThrow('cancelled');
    expect(received).toEqual([]);
  });

  it('does not send again a request delivered before the step was stopped (ctx.calls)', async () => {
    const calls = new MemoryCallJournal();
    const test = contextFor();
    const ctx = { ...test.ctx, calls };
    const params = { url: `${base}/hook`, records_per_request: 100 };
    const first = await sink('webhook').run(ctx, [many], params);
    expect(received).toHaveLength(3);
    expect([...calls.entries.keys()]).toEqual(['request-1', 'request-2', 'request-3']);
    // Redone after a crash that came after the second request: only the third goes out again.
    calls.entries.delete('request-3');
    received.length = 0;
    const again = await sink('webhook').run(ctx, [many], params);
    expect(bodies().map((b) => b.request)).toEqual([3]);
    expect(again.summary).toEqual(first.summary);
  });

  describe('Idempotency-Key', () => {
    const keys = () => received.map((r) => r.headers['idempotency-key']);
    const idsOf = (body: string) => (JSON.parse(body) as { records: { _id: string }[] }).records.map((r) => r._id);
    const attempt = async (stepRunId: string, params: ParamValues) => {
      const test = contextFor({}, undefined, stepRunId);
      await sink('webhook').run(test.ctx, [people], params);
    };

    it('names a request by its step run and the records it carries: the same on every attempt, another for other records or another step run', async () => {
      const params = { url: `${base}/hook`, records_per_request: 2 };
      // A step run sent again (retried or resumed after a failure) keeps its id and cuts the same chunks.
      await attempt('run-a', params);
      const first = keys();
      expect(first).toEqual(received.map((r) => idempotencyKey('run-a', idsOf(r.body))));
      received.length = 0;
      await attempt('run-a', params);
      expect(keys()).toEqual(first);
      received.length = 0;
      await attempt('run-b', params);
      const other = keys();
      expect(hits.get('/hook')).toBe(6);
      expect(new Set([...first, ...other]).size).toBe(4);
    });

    it('stays the same when a request is retried', async () => {
      await run('webhook', { url: `${base}/limited`, records_per_request: 2 });
      expect(received.map((r) => JSON.parse(r.body).request)).toEqual([1, 1, 2]);
      const [tried, retried, next] = keys();
      expect(tried).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(retried).toBe(tried);
      expect(next).not.toBe(tried);
    });

    it('covers every record of an all-in-one request', async () => {
      await attempt('run-a', { url: `${base}/hook`, all_in_one_request: true });
      expect(idsOf(received[0].body)).toHaveLength(4);
      expect(keys()).toEqual([idempotencyKey('run-a', idsOf(received[0].body))]);
    });

    it('is not sent when idempotency_key is off, and a secret header of that name wins', async () => {
      await run('webhook', { url: `${base}/hook`, idempotency_key: false });
      expect(keys()).toEqual([undefined]);
      received.length = 0;
      await run('webhook', { url: `${base}/hook`, secret_header: 'idempotency-KEY', secret: 'mine-1' });
      expect(keys()).toEqual(['mine-1']);
    });
  });
});
