import { fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError, type FetchBaseQueryMeta } from '@reduxjs/toolkit/query/react';
import { apiBaseUrl } from '../config/env';
import { requestTimed } from '../features/requestTiming/requestTimingSlice';
import { isPublicEndpoint } from './publicEndpoints';
import { requestHeaders } from './requestHeaders';

// The one HTTP client every area shares (spec §7). Its defaults mirror the client the spec was
// taken from: JSON Accept, no timeout, 2xx is success, an anti-forgery cookie/header pair. The
// headers themselves are declared in requestHeaders.ts, shared with the file transfers.

const rawBaseQuery = fetchBaseQuery({
  baseUrl: apiBaseUrl,
  // Sends the XSRF cookie to our own origin only; the API is served from the same origin.
  credentials: 'same-origin',
  // No `timeout`: long calls (exports, agent replies) must not be cut short by the client.
  prepareHeaders: (headers, { endpoint }) => {
    for (const [name, value] of Object.entries(requestHeaders({ authorized: !isPublicEndpoint(endpoint) }))) {
      // An endpoint's own Accept (a file download) wins over the JSON default.
      if (name !== 'Accept' || !headers.has(name)) headers.set(name, value);
    }
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
