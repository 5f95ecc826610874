import { getCurrentLocale } from '../i18n/currentIntl';
import { languageTag } from '../i18n/locales';
import { readCookie } from './cookies';
import { newRequestId } from './requestId';
import { getAccessToken } from './tokenStorage';

// The headers every call to our API carries (spec §7), declared once: RTK Query's baseQuery and
// the transfers RTK Query cannot make (uploads with progress, downloads as blobs) both use this.

/** The anti-forgery pair: the server's cookie, echoed in a header on writes. */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

export interface RequestHeaderOptions {
  /** Attach the stored bearer token (default). Public calls go without it (spec §6). */
  authorized?: boolean;
}

/**
 * X-Request-Id (a fresh timestamp-based id, to find the call in the server's log), Accept (JSON
 * unless the call says otherwise), Accept-Language (the page's language: the server's messages
 * come back in it), Authorization (Bearer, when a token is stored) and X-XSRF-TOKEN (when the
 * server's cookie is there). Read afresh on every call: signing out removes the token at once.
 */
export function requestHeaders({ authorized = true }: RequestHeaderOptions = {}): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Request-Id': newRequestId(),
    Accept: 'application/json',
    'Accept-Language': languageTag(getCurrentLocale()),
  };
  const token = authorized ? getAccessToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = readCookie(XSRF_COOKIE);
  if (xsrf) headers[XSRF_HEADER] = xsrf;
  return headers;
}
