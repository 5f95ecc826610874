import {
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import { apiBaseUrl } from '../config/env';
import { requestTimed } from '../features/requestTiming/requestTimingSlice';
import { getCurrentLocale } from '../i18n/currentIntl';
import { languageTag } from '../i18n/locales';
import { readCookie } from './cookies';
import { isPublicEndpoint } from './publicEndpoints';
import { newRequestId } from './requestId';
import { getAccessToken } from './tokenStorage';

// The one HTTP client every area shares (spec §7). Its defaults mirror the client the spec was
// taken from: JSON Accept, no timeout, 2xx is success, an anti-forgery cookie/header pair.

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

const rawBaseQuery = fetchBaseQuery({
  baseUrl: apiBaseUrl,
  // Sends the XSRF cookie to our own origin only; the API is served from the same origin.
  credentials: 'same-origin',
  // No `timeout`: long calls (exports, agent replies) must not be cut short by the client.
  prepareHeaders: (headers, { endpoint }) => {
    headers.set('X-Request-Id', newRequestId());
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    // The server localises its messages from this, so they match the page's language.
    headers.set('Accept-Language', languageTag(getCurrentLocale()));
    const token = getAccessToken();
    if (token && !isPublicEndpoint(endpoint)) headers.set('Authorization', `Bearer ${token}`);
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf) headers.set(XSRF_HEADER, xsrf);
    // Content-Type is left alone: fetchBaseQuery sets JSON for plain objects, while FormData
    // (multipart uploads) and URLSearchParams (login) get theirs from fetch itself.
    return headers;
  },
});

export type AppBaseQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, object, FetchBaseQueryMeta>;

export const baseQuery: AppBaseQuery = async (args, api, extraOptions) => {
  const start = Date.now();
  const result = await rawBaseQuery(args, api, extraOptions);
  const end = Date.now();
  const url = typeof args === 'string' ? args : args.url;
  const method = (typeof args === 'string' ? 'GET' : (args.method ?? 'GET')).toUpperCase();
  api.dispatch(requestTimed({ url, method, start, end, duration: end - start }));
  return result;
};
