import { createEventStreamParser, openEventStream, readEventBody, type ServerSentEvent } from './eventStream';

// The reader both streams use: bytes arrive in pieces cut anywhere by the network.

/** A body that hands out `pieces` one read at a time, as a network would. */
function bodyOf(pieces: (string | Uint8Array)[]) {
  const encoder = new TextEncoder();
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces.shift();
      if (piece === undefined) controller.close();
      else controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, wasCancelled: () => cancelled };
}

async function readAll(pieces: (string | Uint8Array)[], signal?: AbortSignal) {
  const events: ServerSentEvent[] = [];
  await readEventBody(bodyOf(pieces).body, createEventStreamParser(), (event) => events.push(event), signal);
  return events;
}

describe('the event-stream reader', () => {
  it('completes an event cut in the middle of a field, of a line ending, and of a character', async () => {
    const bytes = new TextEncoder().encode('id: 4\r\nevent: text_delta\r\ndata: {"text":"数据"}\r\n\r\n');
    const cutInCharacter = bytes.indexOf(0xe6) + 1;
    const cutInLineEnd = bytes.indexOf(13) + 1;
    const events = await readAll([bytes.slice(0, cutInLineEnd), bytes.slice(cutInLineEnd, cutInCharacter), bytes.slice(cutInCharacter)]);
    expect(events).toEqual([{ id: '4', type: 'text_delta', data: '{"text":"数据"}' }]);
  });

  it('joins multi-line data with line feeds and names an unnamed event "message"', async () => {
    expect(await readAll(['data: first\ndata:second\ndata\n\n'])).toEqual([{ id: undefined, type: 'message', data: 'first\nsecond\n' }]);
  });

  it('skips comments and heartbeats between events, and blocks without data', async () => {
    const events = await readAll([': keep-alive\n\n', 'event: step_started\n: still here\ndata: {}\n\n', ':\n\nretry: 50\n\nid: 9\n\n']);
    expect(events).toEqual([{ id: undefined, type: 'step_started', data: '{}' }]);
  });

  it('remembers the last event id and retry across events, for a reconnection', () => {
    const parser = createEventStreamParser();
    parser.push('retry: 1500\n\nid: 3\ndata: a\n\n');
    parser.push('data: b\n\n');
    expect([parser.lastEventId, parser.retryMs]).toEqual(['3', 1500]);
  });

  it('drops an event beyond the size limit and reads on', () => {
    const parser = createEventStreamParser();
    expect(parser.push(`data: ${'x'.repeat(1_100_000)}`)).toEqual([]);
    expect(parser.push('\n\ndata: next\n\n')).toEqual([{ id: undefined, type: 'message', data: 'next' }]);
  });

  it('stops at an abort: the body is cancelled and no later event is handed over', async () => {
    const controller = new AbortController();
    const { body, wasCancelled } = bodyOf(['data: 1\n\ndata: 2\n\n', 'data: 3\n\n']);
    const seen: string[] = [];
    await readEventBody(
      body,
      createEventStreamParser(),
      (event) => {
        seen.push(event.data);
        controller.abort();
      },
      controller.signal,
    );
    expect(seen).toEqual(['1']);
    expect(wasCancelled()).toBe(true);
  });

  it('asks with the bearer token, X-Request-Id, the event-stream Accept and a JSON body', async () => {
    localStorage.setItem('accessToken', 'tok-2');
    let sent: RequestInit | undefined;
    await openEventStream('/conversations/c-1/messages/stream', {
      method: 'POST',
      json: { content: 'hi' },
      lastEventId: '12',
      signal: new AbortController().signal,
      fetchImpl: async (_url, init) => {
        sent = init;
        return new Response(null, { status: 204 });
      },
    });
    const headers = new Headers(sent?.headers);
    expect([
      headers.get('authorization'),
      !!headers.get('x-request-id'),
      headers.get('accept'),
      headers.get('content-type'),
      headers.get('last-event-id'),
    ]).toEqual(['Bearer tok-2', true, 'text/event-stream', 'application/json', '12']);
    expect([sent?.method, sent?.body]).toEqual(['POST', '{"content":"hi"}']);
  });
});
