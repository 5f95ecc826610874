import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { loadCatalog } from './catalogs';
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
      // it downloads. Always through loadCatalog: a language whose rest is still on its way is
      // already "loaded" for the frame, and a page shown in it then would keep its keys (nothing
      // renders again when the rest arrives). Router state (a pre-filled email, where to go after
      // sign-in) survives.
      void loadCatalog(target).then(() => navigate(`${withLocalePrefix(pathname, target)}${search}${hash}`, { replace: true, state }));
    },
    [pathname, search, hash, state, navigate],
  );
}
