// The one file that reads Vite's build-time settings (import.meta.env). Jest cannot parse
// import.meta, so jest.config.ts maps this module to env.jest.ts, which exports the same names.

/** Where the API lives. Relative by default: in development Vite proxies /api, in production the
 *  server serves the built app on the same origin. VITE_API_BASE_URL points elsewhere if needed. */
export const apiBaseUrl: string = import.meta.env.VITE_API_BASE_URL || '/api/v1';

/** Redux DevTools are a development aid only; production builds do not expose the store. */
export const isProduction: boolean = import.meta.env.PROD;

/** A missing translation is a bug: fail loudly in tests, log elsewhere. */
export const strictI18n = false;
