import en from '../../i18n/en.json';
import type { AppLocale } from './locales';

// Flat catalogs at the repository root (i18n/), shared with the server. The build drops the
// server's `server.*` keys from what the web app imports (vite.config.ts, webCatalogsOnly).
// English is in the first download; Chinese is fetched only when a Chinese page is shown.

export type Catalog = Record<string, string>;

const loaded: Partial<Record<AppLocale, Catalog>> = { en };
const loading: Partial<Record<AppLocale, Promise<Catalog>>> = {};

const importers: Record<AppLocale, () => Promise<Catalog>> = {
  en: async () => en,
  cn: async () => (await import('../../i18n/zh-CN.json')).default,
};

/** The catalog if it is already here, else undefined (then `loadCatalog`). */
export function loadedCatalog(locale: AppLocale): Catalog | undefined {
  return loaded[locale];
}

/**
 * Fetches a language's catalog once; later calls answer the same promise (React's `use` needs a
 * stable one). A failed download (offline) answers English rather than breaking every page.
 */
export function loadCatalog(locale: AppLocale): Promise<Catalog> {
  const ready = loaded[locale];
  if (ready) return Promise.resolve(ready);
  loading[locale] ??= importers[locale]().then(
    (catalog) => (loaded[locale] = catalog),
    (err: unknown) => {
      console.error(err);
      return en;
    },
  );
  return loading[locale];
}
