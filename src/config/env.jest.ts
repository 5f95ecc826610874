// Test copy of env.ts (jest.config.ts maps `.../config/env` here). RTK Query's fetchBaseQuery
// cannot resolve a relative base URL outside a browser, so tests use an absolute one on jsdom's
// own origin (http://localhost), which keeps requests same-origin like in production.

export const apiBaseUrl = 'http://localhost/api/v1';

export const isProduction = false;

/** Tests render every screen: a missing translation key throws instead of silently falling back. */
export const strictI18n = true;
