import { apiBaseUrl } from '../../config/env';
import { requestHeaders } from '../../services/requestHeaders';

// Server-sent events read with fetch, not EventSource: EventSource cannot send the bearer token
// and X-Request-Id every call to our API carries (services/requestHeaders.ts).

export interface ServerSentEvent {
  /** The `id:` field; undefined when the event had none. */
  id: string | undefined;
  /** The `event:` field; "message" when absent (as in EventSource). */
  type: string;
  data: string;
}

/** A field line longer than this is dropped with its event: a broken stream cannot fill memory. */
const MAX_BUFFER_CHARS = 1_000_000;

/**
 * The text/event-stream format (HTML §9.2.6) as a push parser: `push` takes any piece of the
 * stream, split anywhere (mid-line, between CR and LF), and answers the events it completed.
 * Comments (`: keep-alive`) are ignored; `retry:` is reported through `retryMs`.
 */
export function createSseParser() {
  let buffer = '';
  let data: string[] = [];
  let type = '';
  let id: string | undefined;
  let lastId: string | undefined;
  let retryMs: number | undefined;
  let pendingCr = false;

  const line = (text: string, out: ServerSentEvent[]) => {
    if (text === '') {
      if (data.length) out.push({ id, type: type || 'message', data: data.join('\n') });
      data = [];
      type = '';
      id = undefined;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') type = value;
    else if (field === 'id' && !value.includes('\0')) id = lastId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
  };

  return {
    push(chunk: string): ServerSentEvent[] {
      const out: ServerSentEvent[] = [];
      let text = chunk;
      // A CR ending the previous piece was a line end already; its LF must not end another line.
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i), out);
        if (c === '\r') {
          if (i + 1 < buffer.length) {
            if (buffer[i + 1] === '\n') i++;
          } else pendingCr = true;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
      if (buffer.length > MAX_BUFFER_CHARS) buffer = '';
      return out;
    },
    /** The last `id:` seen: sent back as Last-Event-ID on reconnecting. */
    get lastEventId() {
      return lastId;
    },
    get retryMs() {
      return retryMs;
    },
  };
}

/**
 * Reads one response body to its end through `parser`, handing over each event as it completes.
 * Shared by the run's event stream (below) and the chat's (features/conversations/chatStream.ts).
 */
export async function readEventBody(
  body: ReadableStream<Uint8Array>,
  parser: ReturnType<typeof createSseParser>,
  onEvent: (event: ServerSentEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  // Aborting the fetch should end the body too; not every fetch does (service workers, test
  // doubles), so the reader is cancelled as well: a stopped stream never waits for its next piece.
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal?.aborted) break;
      for (const event of parser.push(decoder.decode(value, { stream: true }))) onEvent(event);
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

export interface EventStreamOptions {
  /** Each event as it arrives. */
  onEvent: (event: ServerSentEvent) => void;
  /** The stream ended on its own (the server closes it when the run is over). */
  onEnd?: () => void;
  /** The stream could not be opened or broke `maxFailures` times in a row: the caller polls instead. */
  onFail: () => void;
  /** Whether to open it again after it ended (the run is not final yet). */
  shouldReconnect?: () => boolean;
  maxFailures?: number;
  fetchImpl?: typeof fetch;
}

/**
 * Reads `path` (under the API's base) as server-sent events until `signal` aborts. After a broken
 * or ended stream it reconnects with Last-Event-ID when `shouldReconnect` says so, so no event is
 * missed or repeated.
 */
export async function readEventStream(path: string, signal: AbortSignal, options: EventStreamOptions): Promise<void> {
  const { onEvent, onEnd, onFail, shouldReconnect = () => false, maxFailures = 3, fetchImpl = fetch } = options;
  const parser = createSseParser();
  let failures = 0;
  while (!signal.aborted) {
    let received = false;
    try {
      const headers: Record<string, string> = { ...requestHeaders(), Accept: 'text/event-stream' };
      if (parser.lastEventId !== undefined) headers['Last-Event-ID'] = parser.lastEventId;
      const response = await fetchImpl(`${apiBaseUrl}${path}`, { headers, signal, cache: 'no-store' });
      if (!response.ok || !response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream'))
        throw new Error(`events: ${response.status}`);
      await readEventBody(
        response.body,
        parser,
        (event) => {
          received = true;
          onEvent(event);
        },
        signal,
      );
      failures = 0;
      if (!shouldReconnect()) return onEnd?.();
    } catch {
      if (signal.aborted) return;
      failures = received ? 1 : failures + 1;
      if (failures >= maxFailures) return onFail();
    }
    await new Promise((resolve) => setTimeout(resolve, parser.retryMs ?? 2000));
  }
}
