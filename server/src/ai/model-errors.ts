import { APICallError, JSONParseError, NoObjectGeneratedError, NoOutputGeneratedError, RetryError, TypeValidationError } from 'ai';
import { DomainError } from '../lib/errors';

/** Why a model call failed, in the terms callers act on (wait and retry, tell the user, repair). */
export type ModelFailureKind =
  /** 429: wait `retryAfterMs` (when the provider said) and try again. */
  | 'rate_limited'
  /** 401/403: the key is wrong or lacks access; retrying cannot help. */
  | 'auth'
  /** 400/404/422: the provider refused the request (unknown model, context too long). */
  | 'rejected'
  /** 5xx or a dropped connection: the provider is having trouble; retrying may help. */
  | 'unavailable'
  /** Nothing answered at the URL. */
  | 'unreachable'
  /** An answer came but was not what was asked (malformed JSON, no output, wrong shape). */
  | 'bad_answer'
  /** We stopped it (pause, cancel, the client went away). */
  | 'aborted';

export interface ModelFailure {
  kind: ModelFailureKind;
  /** HTTP status when there was one. */
  status: number | null;
  /** From Retry-After (seconds or a date) or the provider's retry-after-ms header. */
  retryAfterMs: number | null;
  /** The provider's own words, cut short (English; for logs and the step's error). */
  detail: string;
  /** Worth trying again later (rate limits, outages), as opposed to a request that will fail again. */
  retryable: boolean;
}

const MAX_DETAIL = 300;

/** Reads an error thrown by the AI SDK (or under it) as a ModelFailure. */
export function describeModelFailure(err: unknown): ModelFailure {
  // The SDK retries on its own and wraps the attempts; the last one says what finally happened.
  const cause = RetryError.isInstance(err) ? err.lastError : err;
  if (isAbort(cause)) return failure('aborted', null, null, 'aborted', false);
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode ?? null;
    const detail = providerMessage(cause.responseBody) ?? cause.message;
    // A 200 whose body could not be read as the protocol says (the SDK reports it as a call error).
    if (status !== null && status < 300) return failure('bad_answer', status, null, cause.message, true);
    if (status === 429) return failure('rate_limited', status, retryAfter(cause.responseHeaders), detail, true);
    if (status === 401 || status === 403) return failure('auth', status, null, detail, false);
    if (status !== null && status >= 500) return failure('unavailable', status, retryAfter(cause.responseHeaders), detail, true);
    if (status !== null) return failure('rejected', status, null, detail, false);
    return failure('unreachable', null, null, cause.message, true);
  }
  if (
    JSONParseError.isInstance(cause) ||
    TypeValidationError.isInstance(cause) ||
    NoObjectGeneratedError.isInstance(cause) ||
    NoOutputGeneratedError.isInstance(cause)
  ) {
    return failure('bad_answer', null, null, (cause as Error).message, true);
  }
  const code = (cause as { code?: unknown; cause?: { code?: unknown } } | null)?.cause?.code ?? (cause as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') {
    return failure('unreachable', null, null, String(code), true);
  }
  return failure('unavailable', null, null, cause instanceof Error ? cause.message : String(cause), true);
}

const KEYS: Record<Exclude<ModelFailureKind, 'aborted'>, string> = {
  rate_limited: 'server.ai.rateLimited',
  auth: 'server.ai.authFailed',
  rejected: 'server.ai.requestRejected',
  unavailable: 'server.ai.unavailable',
  unreachable: 'server.ai.unreachable',
  bad_answer: 'server.ai.badAnswer',
};

/** The failure as an error people read (502, the provider's words beside our sentence). */
export function modelCallFailed(failure: ModelFailure): DomainError {
  const key = failure.kind === 'aborted' ? 'server.ai.unavailable' : KEYS[failure.kind];
  return new DomainError('upstream_failed', key, { detail: failure.detail, status: failure.status ?? '—' });
}

function failure(kind: ModelFailureKind, status: number | null, retryAfterMs: number | null, detail: string, retryable: boolean): ModelFailure {
  return { kind, status, retryAfterMs, detail: detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL)}…` : detail, retryable };
}

function isAbort(err: unknown): boolean {
  return (err as { name?: unknown } | null)?.name === 'AbortError' || (err as { name?: unknown } | null)?.name === 'TimeoutError';
}

/** OpenAI-style `{error: {message}}` bodies, which most compatible servers copy. */
function providerMessage(body: string | undefined): string | null {
  if (!body) return null;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    return typeof message === 'string' ? message : null;
  } catch {
    return body.slice(0, MAX_DETAIL);
  }
}

/** Retry-After in seconds or as an HTTP date, or OpenAI's retry-after-ms; capped at ten minutes. */
export function retryAfter(headers: Record<string, string> | undefined): number | null {
  if (!headers) return null;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number(lower['retry-after-ms']);
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, 600_000);
  const value = lower['retry-after'];
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 600_000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.min(Math.max(0, date - Date.now()), 600_000);
}
