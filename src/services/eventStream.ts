import { createParser } from 'eventsource-parser';
import { apiBaseUrl } from '../config/env';
import { requestHeaders } from './requestHeaders';

// Server-sent events from our API, read with fetch rather than EventSource: EventSource can
// neither POST (a chat turn) nor send the bearer token and X-Request-Id that every call carries
// (requestHeaders.ts). The text/event-stream format itself is eventsource-parser's job; this module
// adds what both of our streams need around it: the headers, the body loop, abort, Last-Event-ID.
// Used by the run's progress stream (features/runs/sse.ts) and a chat turn
// (features/conversations/chatStream.ts).

export interface ServerSentEvent {
  /** The `id:` field; undefined when the event had none. */
  id: string | undefined;
  /** The `event:` field; "message" when absent (as in EventSource). */
  type: string;
  data: string;
}

/** A line or event longer than this is dropped: a broken stream cannot fill memory. */
const MAX_BUFFER_CHARS = 1_000_000;

export interface EventStreamParser {
  /** Takes any piece of the stream, cut anywhere (mid-line, between CR and LF), and answers the events it completed. */
  push(chunk: string): ServerSentEvent[];
  /** The last `id:` seen across every piece: sent back as Last-Event-ID on reconnecting. */
  readonly lastEventId: string | undefined;
  /** The server's last `retry:`, in milliseconds. */
  readonly retryMs: number | undefined;
}

/**
 * A push parser over eventsource-parser: one per logical stream, kept across reconnections so
 * that `lastEventId` and `retryMs` survive them. Comments (`: keep-alive`) and unknown fields are
 * ignored.
 */
export function createEventStreamParser(): EventStreamParser {
  let completed: ServerSentEvent[] = [];
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  let overflowed = false;
  const parser = createParser({
    onEvent: (event) => completed.push({ id: event.id, type: event.event || 'message', data: event.data }),
    onId: (id) => (lastEventId = id),
    onRetry: (ms) => (retryMs = ms),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflowed = true;
    },
    maxBufferSize: MAX_BUFFER_CHARS,
  });
  return {
    push(chunk) {
      parser.feed(chunk);
      // An oversized event is dropped and the stream read on, as a broken line would be: the
      // parser refuses further input until it is reset.
      if (overflowed) {
        parser.reset();
        overflowed = false;
      }
      const out = completed;
      completed = [];
      return out;
    },
    get lastEventId() {
      return lastEventId;
    },
    get retryMs() {
      return retryMs;
    },
  };
}

/**
 * Reads one response body to its end (or until `signal` aborts) through `parser`, handing over
 * each event as it completes. Bytes are decoded as a stream, so a character cut between two
 * pieces arrives whole.
 */
export async function readEventBody(
  body: ReadableStream<Uint8Array>,
  parser: EventStreamParser,
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
      for (const event of parser.push(decoder.decode(value, { stream: true }))) {
        // A handler may stop the stream (the run ended, the user pressed Stop): later events of
        // the same piece are not delivered after that.
        if (signal?.aborted) return;
        onEvent(event);
      }
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

export interface OpenEventStreamInit {
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as Last-Event-ID when defined, to resume after the last event received. */
  lastEventId?: string;
  signal: AbortSignal;
  fetchImpl?: typeof fetch;
}

/** Whether an answer is an event stream we can read (not an error body, not an HTML page). */
export function isEventStream(response: Response): response is Response & { body: ReadableStream<Uint8Array> } {
  return response.ok && !!response.body && (response.headers.get('content-type') ?? '').includes('text/event-stream');
}

/**
 * Requests `path` (under the API's base) as an event stream with the headers of every API call
 * (bearer token, X-Request-Id, language, anti-forgery). The answer is returned as it is: the caller
 * decides what a refusal means (poll instead, show the error…), checking it with `isEventStream`.
 */
export function openEventStream(path: string, init: OpenEventStreamInit): Promise<Response> {
  const { method = 'GET', json, lastEventId, signal, fetchImpl = fetch } = init;
  const headers: Record<string, string> = { ...requestHeaders(), Accept: 'text/event-stream' };
  if (json !== undefined) headers['Content-Type'] = 'application/json';
  if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
  return fetchImpl(`${apiBaseUrl}${path}`, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
    signal,
    cache: 'no-store',
    credentials: 'same-origin',
  });
}
