import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { getCurrentPath, navigate } from '../../app/navigation';
import { useAppSelector } from '../../app/hooks';
import { loadCatalog } from '../../i18n/catalogs';
import { localeFromPath, stripLocalePrefix, withLocalePrefix } from '../../i18n/locales';
import { storeLocalePreference } from '../../i18n/preference';
import { selectUser } from '../auth/authSlice';

/**
 * The signed-in account's saved language wins over the browser's (issue 8): once the user is known
 * (after sign-in, or on start-up once /users/me has answered), and whenever the account's language
 * changes, it becomes the NEXT_LOCALE choice and the page moves under /cn (or out of it).
 *
 * Applied once per account and language, so the visitor can still look at the other language's
 * pages afterwards (the header's switcher saves that choice to the account anyway).
 */
export function UserLocaleSync() {
  const user = useAppSelector(selectUser);
  const { pathname } = useLocation();
  const applied = useRef<string | null>(null);
  const key = user ? `${user.id}|${user.locale}` : null;
  const locale = user?.locale;

  useEffect(() => {
    if (!key || !locale) {
      applied.current = null;
      return;
    }
    if (applied.current === key) return;
    // The sign-in page sends the user on as soon as they are known; act on the page they land on.
    if (stripLocalePrefix(pathname) === '/login') return;
    applied.current = key;
    storeLocalePreference(locale);
    if (localeFromPath(pathname) === locale) return;
    // The catalog first, so the page changes language in one step. The path is read when it is
    // ready: the sign-in page may have sent the user on in the meantime.
    const go = () => {
      const current = getCurrentPath();
      const [, path, rest] = /^([^?#]*)(.*)$/.exec(current) ?? ['', current, ''];
      if (localeFromPath(path) !== locale) navigate(`${withLocalePrefix(path, locale)}${rest}`, { replace: true });
    };
    // Always through loadCatalog: see useSwitchLocale.
    void loadCatalog(locale).then(go);
  }, [key, locale, pathname]);

  return null;
}
