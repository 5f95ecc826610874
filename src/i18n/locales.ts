import type { Locale } from '../../server/src/modules/users/users.schemas';

// The URL decides the interface language: paths under /cn are Chinese, everything else English
// (spec §2). `cn` is also the value the server stores for a user's locale and the NEXT_LOCALE
// cookie value, so one type serves all three.

export type AppLocale = Locale;

export const CN_PREFIX = '/cn';

/** BCP 47 tags for Intl and Accept-Language; the server localises its texts from the latter. */
export type LanguageTag = 'en' | 'zh-CN';

export function languageTag(locale: AppLocale): LanguageTag {
  return locale === 'cn' ? 'zh-CN' : 'en';
}

export function isUnderCnPrefix(pathname: string): boolean {
  return pathname === CN_PREFIX || pathname.startsWith(`${CN_PREFIX}/`);
}

export function localeFromPath(pathname: string): AppLocale {
  return isUnderCnPrefix(pathname) ? 'cn' : 'en';
}

/** '/cn/settings' → '/settings', '/cn' → '/'. */
export function stripLocalePrefix(pathname: string): string {
  if (!isUnderCnPrefix(pathname)) return pathname;
  return pathname.slice(CN_PREFIX.length) || '/';
}

/** ('/settings', 'cn') → '/cn/settings', ('/', 'cn') → '/cn'; English paths have no prefix. */
export function withLocalePrefix(path: string, locale: AppLocale): string {
  const bare = stripLocalePrefix(path);
  if (locale === 'en') return bare;
  return bare === '/' ? CN_PREFIX : `${CN_PREFIX}${bare}`;
}
