import { isUnderCnPrefix, CN_PREFIX, type AppLocale } from './locales';

/**
 * Where to send a visitor so they see the Chinese site, or null to stay (spec §2).
 *
 * - The home page (/) never redirects, so everyone can reach the English landing page.
 * - Paths already under /cn stay.
 * - A stored preference wins: `cn` redirects, `en` stays even on a Chinese browser.
 * - With no stored preference, a browser language starting with `zh` redirects.
 *
 * The path, query and hash are kept.
 */
export function localeRedirectTarget(
  pathname: string,
  search: string,
  hash: string,
  storedPref: AppLocale | null,
  browserLang: string | null | undefined,
): string | null {
  if (pathname === '/' || pathname === '' || isUnderCnPrefix(pathname)) return null;
  const wantsChinese = storedPref === 'cn' || (storedPref === null && (browserLang ?? '').toLowerCase().startsWith('zh'));
  return wantsChinese ? `${CN_PREFIX}${pathname}${search}${hash}` : null;
}
