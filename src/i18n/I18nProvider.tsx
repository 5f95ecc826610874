import { use, useEffect, type ReactNode } from 'react';
import { RawIntlProvider } from 'react-intl';
import { useLocation } from 'react-router-dom';
import { loadCatalog, loadedCatalog } from './catalogs';
import { intlFor, setCurrentLocale } from './currentIntl';
import { languageTag, localeFromPath } from './locales';

// The URL prefix decides the language (spec §2): /cn/... is Chinese, everything else English.
// A language whose catalog is not loaded yet suspends until it is (the nearest Suspense shows
// its fallback; a navigation in a transition keeps the previous page on screen instead).
export function I18nProvider({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  const catalog = loadedCatalog(locale) ?? use(loadCatalog(locale));
  // Recorded during render, not in an effect: a notice or request triggered by this very render
  // must already use the language on screen. Idempotent, so a re-render does no harm.
  setCurrentLocale(locale);

  useEffect(() => {
    document.documentElement.lang = languageTag(locale);
  }, [locale]);

  return <RawIntlProvider value={intlFor(locale, catalog)}>{children}</RawIntlProvider>;
}
