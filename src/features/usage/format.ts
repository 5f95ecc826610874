import type { IntlShape } from 'react-intl';

// Credits are decimals (an AI call may cost 0.002); money comes in the currency's smallest unit.

/**
 * Every amount of credits the app shows (balances, totals, estimates, usage rows, prices) goes
 * through here, so one amount reads the same everywhere: at most two decimals, and an amount under
 * 0.01 that is not 0 keeps two significant digits (0.002 reads "0.002", never "0"). The server's
 * messages (a 402's "needs about … credits") round the same way (`roundCreditsForPeople`).
 */
export function formatCredits(intl: IntlShape, credits: number): string {
  if (credits !== 0 && Math.abs(credits) < 0.01) return intl.formatNumber(credits, { maximumSignificantDigits: 2 });
  return intl.formatNumber(credits, { maximumFractionDigits: 2 });
}

/** 500 'usd' → "$5.00"; the number of decimals is the currency's own (¥500 for 'jpy'). */
export function formatMoney(intl: IntlShape, amountInSmallestUnit: number, currency: string): string {
  const code = currency.toUpperCase();
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  return intl.formatNumber(amountInSmallestUnit / 10 ** digits, { style: 'currency', currency: code });
}

/** YYYY-MM-DD of a local day, for the date inputs and the API's date filters. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A bucket's or filter's YYYY-MM-DD, shown as a short date in the page's language. */
export function formatDay(intl: IntlShape, day: string, withYear = false): string {
  const [y, m, d] = day.split('-').map(Number);
  return intl.formatDate(new Date(y, m - 1, d), { month: 'short', day: 'numeric', ...(withYear ? { year: 'numeric' } : {}) });
}

/** A month bucket's YYYY-MM-DD (its first day) as "Nov 2026". */
export function formatMonth(intl: IntlShape, day: string): string {
  const [y, m] = day.split('-').map(Number);
  return intl.formatDate(new Date(y, m - 1, 1), { month: 'short', year: 'numeric' });
}
