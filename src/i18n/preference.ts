import { readCookie, writeCookie } from '../services/cookies';
import type { AppLocale } from './locales';

// The visitor's chosen language, stored as Next.js does: a NEXT_LOCALE cookie (spec §9) valid for
// a year on the whole site. Only an explicit choice writes it (switcher or saved settings).

export const LOCALE_COOKIE = 'NEXT_LOCALE';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export function readLocalePreference(): AppLocale | null {
  const value = readCookie(LOCALE_COOKIE);
  return value === 'cn' || value === 'en' ? value : null;
}

export function storeLocalePreference(locale: AppLocale): void {
  writeCookie(LOCALE_COOKIE, locale, ONE_YEAR_SECONDS);
}
