import { createEventStreamParser as createSseParser, type ServerSentEvent } from '../../services/eventStream';
import { readEventStream } from './sse';

// The run's events arrive as text/event-stream over fetch, in pieces cut anywhere by the network.

const stream =
  'retry: 10\n\nid: 1\nevent: step_started\ndata: {"step_run_id":"sr-1"}\n\n: keep-alive\n\nid: 2\nevent: step_progress\ndata: {"done":50,\ndata: "total":100}\n\n';

describe('the server-sent events parser', () => {
  it('gives the same events whatever the pieces are cut at: mid-line, mid-field, between CR and LF', () => {
    const whole = createSseParser().push(stream);
    expect(whole).toEqual([
      { id: '1', type: 'step_started', data: '{"step_run_id":"sr-1"}' },
      { id: '2', type: 'step_progress', data: '{"done":50,\n"total":100}' },
    ]);
    for (const text of [stream, stream.replace(/\n/g, '\r\n'), stream.replace(/\n/g, '\r')]) {
      for (let size = 1; size <= 7; size++) {
        const parser = createSseParser();
        const events: ServerSentEvent[] = [];
        for (let at = 0; at < text.length; at += size) events.push(...parser.push(text.slice(at, at + size)));
        expect([size, events]).toEqual([size, whole]);
        expect(parser.lastEventId).toBe('2');
        expect(parser.retryMs).toBe(10);
      }
    }
  });

  it('keeps an unfinished event until its blank line, and ignores comments and unknown fields', () => {
    const parser = createSseParser();
    expect(parser.push('event: run_succeeded\ndata: {}\nfoo: bar\n: note\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: undefined, type: 'run_succeeded', data: '{}' }]);
    expect(parser.push('data: plain\n\n')).toEqual([{ id: undefined, type: 'message', data: 'plain' }]);
  });
});

describe('reading an event stream', () => {
  const sse = (body: string, status = 200) =>
    new Response(new Blob([body]).stream(), { status, headers: { 'content-type': status === 200 ? 'text/event-stream' : 'application/json' } });

  it('sends the bearer token and, on reconnecting, the last event id, so nothing is missed or repeated', async () => {
    localStorage.setItem('accessToken', 'tok-1');
    const calls: Headers[] = [];
    const bodies = ['retry: 5\n\nid: 7\nevent: step_started\ndata: {}\n\n', 'id: 8\nevent: run_succeeded\ndata: {}\n\n'];
    const seen: string[] = [];
    let open = true;
    await readEventStream('/workflow-runs/r-1/events?after=0', new AbortController().signal, {
      onEvent: (e) => {
        seen.push(`${e.id}:${e.type}`);
        if (e.type === 'run_succeeded') open = false;
      },
      onFail: () => seen.push('failed'),
      shouldReconnect: () => open,
      fetchImpl: async (_url, init) => {
        calls.push(new Headers(init?.headers));
        return sse(bodies[calls.length - 1]);
      },
    });
    expect(seen).toEqual(['7:step_started', '8:run_succeeded']);
    expect(calls.map((h) => [h.get('authorization'), h.get('last-event-id'), !!h.get('x-request-id')])).toEqual([
      ['Bearer tok-1', null, true],
      ['Bearer tok-1', '7', true],
    ]);
  });

  it('gives up after repeated failures, so the caller can poll instead', async () => {
    let failed = false;
    let tries = 0;
    await readEventStream('/workflow-runs/r-1/events', new AbortController().signal, {
      onEvent: () => undefined,
      onFail: () => (failed = true),
      shouldReconnect: () => true,
      maxFailures: 2,
      fetchImpl: async () => {
        tries++;
        return tries === 1 ? sse('retry: 5\n\n', 500) : Promise.reject(new TypeError('network down'));
      },
    });
    expect([tries, failed]).toEqual([2, true]);
  });
});
