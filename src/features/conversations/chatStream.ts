import type { Dispatch } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { translate } from '../../i18n/currentIntl';
import { createEventStreamParser, isEventStream, openEventStream, readEventBody } from '../../services/eventStream';
import { endExpiredSession } from '../auth/sessionExpired';
import { describeFailure } from '../notices/describeResponse';
import { addMessage } from '../notices/noticesSlice';
import { requestTimed } from '../requestTiming/requestTimingSlice';
import type { StreamEvents, StreamMessageIn } from './conversationTypes';

// One chat turn: POST /conversations/{id}/messages/stream, read with fetch (EventSource can neither
// POST nor send the bearer token) through the shared event-stream reader (services/eventStream.ts).
// Failures reach the notices slice exactly as an RTK Query call's would (describeFailure): a 401
// ends the session, a 409 without a configured model shows its warning modal, an `error` event its
// detail or modal.

export type ChatStreamEvent = { [K in keyof StreamEvents]: { type: K; data: StreamEvents[K] } }[keyof StreamEvents];

/**
 * How the turn ended: `done`/`error` are the stream's last events; `aborted` the user stopped it;
 * `refused` the server answered an error before streaming; `dropped` the stream broke or ended
 * without a last event.
 */
export type ChatStreamOutcome = 'done' | 'error' | 'aborted' | 'refused' | 'dropped';

const EVENT_TYPES = new Set<string>(['message_start', 'text_delta', 'tool_call', 'tool_result', 'commit', 'done', 'error']);

export interface ChatStreamOptions {
  signal: AbortSignal;
  dispatch: Dispatch;
  onEvent: (event: ChatStreamEvent) => void;
  fetchImpl?: typeof fetch;
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

function notify(dispatch: Dispatch, error: FetchBaseQueryError, statusText?: string) {
  for (const notice of describeFailure(error, statusText, translate)) dispatch(addMessage(notice));
}

export async function streamMessage(conversationId: string, body: StreamMessageIn, options: ChatStreamOptions): Promise<ChatStreamOutcome> {
  const start = Date.now();
  try {
    return await streamTurn(conversationId, body, options);
  } finally {
    // Timed like every RTK Query call (baseQuery), from the request to the stream's end.
    const end = Date.now();
    options.dispatch(requestTimed({ url: `/conversations/${conversationId}/messages/stream`, method: 'POST', start, end, duration: end - start }));
  }
}

async function streamTurn(conversationId: string, body: StreamMessageIn, options: ChatStreamOptions): Promise<ChatStreamOutcome> {
  const { signal, dispatch, onEvent, fetchImpl } = options;
  let response: Response;
  try {
    response = await openEventStream(`/conversations/${encodeURIComponent(conversationId)}/messages/stream`, { method: 'POST', json: body, signal, fetchImpl });
  } catch {
    if (signal.aborted) return 'aborted';
    notify(dispatch, { status: 'FETCH_ERROR', error: 'network' });
    return 'refused';
  }
  if (response.status === 401) {
    endExpiredSession(dispatch);
    return 'refused';
  }
  if (!isEventStream(response)) {
    const data = await bodyOf(response);
    notify(
      dispatch,
      typeof data === 'string' ? { status: 'PARSING_ERROR', originalStatus: response.status, data, error: 'not JSON' } : { status: response.status, data },
      response.statusText,
    );
    return 'refused';
  }

  let outcome: ChatStreamOutcome = 'dropped';
  try {
    await readEventBody(
      response.body,
      createEventStreamParser(),
      (event) => {
        if (!EVENT_TYPES.has(event.type)) return;
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        const parsed = { type: event.type, data } as ChatStreamEvent;
        if (parsed.type === 'done') outcome = 'done';
        if (parsed.type === 'error') {
          outcome = 'error';
          // The stream is a 200: the error's own status is not an HTTP one, so 500 stands for "failed".
          notify(dispatch, { status: 500, data: parsed.data });
        }
        onEvent(parsed);
      },
      signal,
    );
  } catch {
    if (signal.aborted) return 'aborted';
    notify(dispatch, { status: 'FETCH_ERROR', error: 'network' });
    return 'dropped';
  }
  return signal.aborted ? 'aborted' : outcome;
}
