import { intlFor } from '../../i18n/currentIntl';
import { formatCredits, formatMoney, formatMonth, isoDay } from './format';

const en = intlFor('en');

describe('billing formats', () => {
  it('money in the currency’s own smallest unit', () => {
    expect(formatMoney(en, 500, 'usd')).toBe('$5.00');
    expect(formatMoney(en, 7000, 'EUR')).toBe('€70.00');
    expect(formatMoney(en, 500, 'jpy')).toBe('¥500');
  });

  it('credits: one rounding for every amount, which never shows a charge as 0', () => {
    expect(formatCredits(en, 1234.567)).toBe('1,234.57');
    expect(formatCredits(en, 12.3456)).toBe('12.35');
    expect(formatCredits(en, 0.125)).toBe('0.13');
    expect(formatCredits(en, 0.00204)).toBe('0.002');
    expect(formatCredits(en, 0.0045)).toBe('0.0045');
    expect(formatCredits(en, -0.004)).toBe('-0.004');
    expect(formatCredits(en, 0)).toBe('0');
    expect(formatCredits(intlFor('cn'), 1234.567)).toBe('1,234.57');
  });

  it('days and months', () => {
    expect(isoDay(new Date(2026, 0, 5))).toBe('2026-01-05');
    expect(formatMonth(en, '2026-11-01')).toBe('Nov 2026');
  });
});
