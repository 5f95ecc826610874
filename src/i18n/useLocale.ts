import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { loadCatalog, loadedCatalog } from './catalogs';
import { localeFromPath, withLocalePrefix, type AppLocale } from './locales';
import { storeLocalePreference } from './preference';

/** The language of the page being shown. */
export function useLocale(): AppLocale {
  return localeFromPath(useLocation().pathname);
}

/** Turns an app path ('/settings') into the same path in the current language ('/cn/settings'),
 *  so in-app links never drop the visitor out of the language they chose. */
export function useLocalePath(): (path: string) => string {
  const locale = useLocale();
  return useCallback((path: string) => withLocalePrefix(path, locale), [locale]);
}

/** Remember the choice (NEXT_LOCALE) and show the same page in the other language. */
export function useSwitchLocale(): (target: AppLocale) => void {
  const { pathname, search, hash, state } = useLocation();
  const navigate = useNavigate();
  return useCallback(
    (target: AppLocale) => {
      storeLocalePreference(target);
      // The catalog first, so the page changes language in one step instead of blanking while
      // it downloads. Router state (a pre-filled email, where to go after sign-in) survives.
      const go = () => navigate(`${withLocalePrefix(pathname, target)}${search}${hash}`, { replace: true, state });
      if (loadedCatalog(target)) void go();
      else void loadCatalog(target).then(go);
    },
    [pathname, search, hash, state, navigate],
  );
}
