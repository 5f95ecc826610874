import type { HttpMethod, OutboundRequest, OutboundResponse } from './client';
import { OutboundHttpError } from './errors';

/**
 * Retrying an outbound call: on network errors and time-outs, 429 and 5xx, with exponential
 * backoff and full jitter (so many records failing together do not retry together), honouring the
 * server's Retry-After up to a cap. A call that may have changed something (POST, PATCH) is
 * retried only when the caller says it is safe: retrying a payment is worse than failing it.
 */

export interface RetryOptions {
  method?: HttpMethod;
  /** Attempts in all, the first included (default 3). */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Longest Retry-After we wait; a longer one is cut to this. */
  maxRetryAfterMs?: number;
  /**
   * Retry POST and PATCH too (the caller knows a repeat does no harm, e.g. a webhook receiver that
   * dedupes by the Idempotency-Key it sends). Every attempt must send the same request, headers
   * included: build it once, outside `attempt` (`requestWithRetries` does), so an Idempotency-Key
   * stays the same on every retry.
   */
  retryNonIdempotent?: boolean;
  signal?: AbortSignal;
  /** Told before each wait; for logs and tests. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  /** Injected in tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

const idempotentMethods = new Set<HttpMethod>(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const retryableKinds = new Set(['network', 'timeout']);

export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new OutboundHttpError('aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new OutboundHttpError('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `attempt` until it answers something not worth retrying or attempts run out. The last
 * response is returned even when its status is 429 or 5xx (the caller decides what a 503 means);
 * the last error is thrown.
 */
export async function withRetries(attempt: (n: number) => Promise<OutboundResponse>, options: RetryOptions = {}): Promise<OutboundResponse> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const mayRetry = options.retryNonIdempotent === true || idempotentMethods.has(options.method ?? 'GET');

  for (let n = 1; ; n++) {
    const last = n >= maxAttempts || !mayRetry;
    let delayMs: number;
    let reason: string;
    try {
      const response = await attempt(n);
      if (last || !isRetryableStatus(response.status)) return response;
      const backoff = random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (n - 1));
      const retryAfter = parseRetryAfter(response.headers['retry-after'], now());
      delayMs = retryAfter === null ? backoff : Math.min(retryAfter, maxRetryAfterMs);
      reason = `status ${response.status}`;
    } catch (err) {
      if (last || !(err instanceof OutboundHttpError) || !retryableKinds.has(err.kind) || options.signal?.aborted) throw err;
      delayMs = random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (n - 1));
      reason = err.kind;
    }
    options.onRetry?.({ attempt: n, delayMs, reason });
    await sleep(delayMs, options.signal);
  }
}

/**
 * `withRetries` for one request: the method and the run's signal come from the request itself,
 * and every attempt sends that very request, so its headers (an Idempotency-Key) never change.
 */
export function requestWithRetries(
  client: { request(request: OutboundRequest): Promise<OutboundResponse> },
  request: OutboundRequest,
  options: Omit<RetryOptions, 'method' | 'signal'> = {},
): Promise<OutboundResponse> {
  return withRetries(() => client.request(request), { ...options, method: request.method ?? 'GET', signal: request.signal });
}
