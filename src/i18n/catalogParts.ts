// The web app's texts arrive in two parts (issue 10, first load). The sign-in, sign-up and
// password pages, the not-found page and everything that renders around every page (header
// labels, notices, spinner, no-access screen) take their texts from the prefixes below: they are
// the first download. Every other page waits for the rest before it renders (app/lazyPage.ts),
// so no one sees a raw key. The split is made at build time (vite.config.ts) from the one flat
// catalog per language that translators keep; a page of the first part that starts using a key
// of another prefix must add that prefix here (catalogParts.test.ts checks the pages' keys).

/** Key prefixes (the part before the first dot) whose texts are in the first download. */
export const FIRST_LOAD_PREFIXES: readonly string[] = ['app', 'auth', 'common', 'nav', 'noAccess', 'notFound', 'notices', 'role', 'validation'];

export type CatalogPart = 'first' | 'rest';

/** Which part of the web catalogs a key belongs to; null for the server's own texts, which the
 *  browser never shows (the expression checker's are the exception: the editor runs it too). */
export function catalogPartOf(key: string): CatalogPart | null {
  if (key.startsWith('server.') && !key.startsWith('server.expressions.')) return null;
  return FIRST_LOAD_PREFIXES.includes(key.slice(0, key.indexOf('.'))) ? 'first' : 'rest';
}

/** The keys of one part of a flat catalog, in their order. */
export function catalogPart<T>(catalog: Record<string, T>, part: CatalogPart): Record<string, T> {
  return Object.fromEntries(Object.entries(catalog).filter(([key]) => catalogPartOf(key) === part));
}
