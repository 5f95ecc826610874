import { createEventStreamParser, isEventStream, openEventStream, readEventBody, type ServerSentEvent } from '../../services/eventStream';

// A run's progress as server-sent events (GET /workflow-runs/{id}/events), read through the shared
// event-stream reader (services/eventStream.ts), which sends the bearer token and X-Request-Id.

export type { ServerSentEvent };

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
  const { onEvent, onEnd, onFail, shouldReconnect = () => false, maxFailures = 3, fetchImpl } = options;
  // One parser for every connection: it remembers the last event id and the server's retry delay.
  const parser = createEventStreamParser();
  let failures = 0;
  while (!signal.aborted) {
    let received = false;
    try {
      const response = await openEventStream(path, { lastEventId: parser.lastEventId, signal, fetchImpl });
      if (!isEventStream(response)) throw new Error(`events: ${response.status}`);
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
