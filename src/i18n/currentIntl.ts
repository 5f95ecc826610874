import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import { strictI18n } from '../config/env';
import { loadedCatalog, type Catalog } from './catalogs';
import { languageTag, type AppLocale } from './locales';

// Code outside React (the notices middleware, thunks, the baseQuery's Accept-Language) needs the
// language the user is looking at *when the thing happens*. The I18nProvider records it here on
// every render; before it mounts, English is assumed.

const cache = createIntlCache();
const intls: Partial<Record<AppLocale, IntlShape>> = {};

/** The Intl of a language whose catalog is loaded (see catalogs.ts); English otherwise. */
export function intlFor(locale: AppLocale, catalog: Catalog | undefined = loadedCatalog(locale)): IntlShape {
  if (!catalog) return intlFor('en');
  const existing = intls[locale];
  if (existing && existing.messages === catalog) return existing;
  intls[locale] = createIntl(
    {
      locale: languageTag(locale),
      messages: catalog,
      // No defaultMessage fallbacks: a missing key must be noticed, not papered over.
      onError: (err) => {
        if (strictI18n) throw err;
        console.error(err);
      },
    },
    cache,
  );
  return intls[locale];
}

let currentLocale: AppLocale = 'en';

export function setCurrentLocale(locale: AppLocale): void {
  currentLocale = locale;
}

export function getCurrentLocale(): AppLocale {
  return currentLocale;
}

/** Translate with the current locale, at the moment of the call. */
export function translate(id: string, values?: Record<string, string | number>): string {
  return intlFor(currentLocale).formatMessage({ id }, values);
}
