import enFirst from '../../i18n/en.json?texts=first';
import type { CatalogPart } from './catalogParts';
import type { AppLocale } from './locales';

// Flat catalogs at the repository root (i18n/), shared with the server, imported in two parts
// (catalogParts.ts, split at build time by vite.config.ts): the texts of the sign-in page and of
// the frame around every page, then the rest. English's first part is in the first download;
// everything else is fetched when needed: Chinese when a Chinese page is shown, the rest of a
// language before the first page that needs it renders (loadAllTexts, app/lazyPage.ts).

export type Catalog = Record<string, string>;

const importers: Record<AppLocale, Record<CatalogPart, () => Promise<Catalog>>> = {
  en: {
    first: async () => enFirst,
    rest: async () => (await import('../../i18n/en.json?texts=rest')).default,
  },
  cn: {
    first: async () => (await import('../../i18n/zh-CN.json?texts=first')).default,
    rest: async () => (await import('../../i18n/zh-CN.json?texts=rest')).default,
  },
};

// One object per language that grows in place when its rest arrives: the Intl made from it
// (currentIntl.ts) then finds the new texts without being made again.
const loaded: Partial<Record<AppLocale, Catalog>> = { en: { ...enFirst } };
const loadingFirst: Partial<Record<AppLocale, Promise<Catalog>>> = { en: Promise.resolve(loaded.en!) };
const loadingAll: Partial<Record<AppLocale, Promise<Catalog>>> = {};
/** Set once a page outside the first part was asked for: from then on every language shown
 *  needs all its texts. */
let allTextsWanted = false;

/**
 * The catalog if it is already here, else undefined (then `loadCatalog`). Once all texts are
 * wanted, a language whose rest was never asked for counts as not here (the page switched
 * language), so the I18nProvider waits for it instead of showing keys.
 */
export function loadedCatalog(locale: AppLocale): Catalog | undefined {
  if (allTextsWanted && !loadingAll[locale]) return undefined;
  return loaded[locale];
}

function loadFirst(locale: AppLocale): Promise<Catalog> {
  loadingFirst[locale] ??= importers[locale].first().then(
    (catalog) => (loaded[locale] = { ...catalog }),
    (err: unknown) => {
      console.error(err);
      return loaded.en!;
    },
  );
  return loadingFirst[locale];
}

function loadRest(locale: AppLocale): Promise<Catalog> {
  loadingAll[locale] ??= Promise.all([loadFirst(locale), importers[locale].rest()]).then(
    ([catalog, rest]) => Object.assign(catalog, rest),
    (err: unknown) => {
      console.error(err);
      return loaded[locale] ?? loaded.en!;
    },
  );
  return loadingAll[locale];
}

/**
 * Fetches what a language needs now (its first part, and its rest once all texts are wanted);
 * later calls answer the same promise (React's `use` needs a stable one). A failed download
 * (offline) answers English rather than breaking every page.
 */
export function loadCatalog(locale: AppLocale): Promise<Catalog> {
  return allTextsWanted ? loadRest(locale) : loadFirst(locale);
}

/** Every text of a language (the one on screen), for a page outside the first part: it renders
 *  once this resolves. From then on a language switch waits for all of the other's texts. */
export function loadAllTexts(locale: AppLocale): Promise<Catalog> {
  allTextsWanted = true;
  return loadRest(locale);
}
