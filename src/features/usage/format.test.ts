import { intlFor } from '../../i18n/currentIntl';
import { formatCredits, formatFineCredits, formatMoney, formatMonth, isoDay } from './format';

const en = intlFor('en');

describe('billing formats', () => {
  it('money in the currency’s own smallest unit', () => {
    expect(formatMoney(en, 500, 'usd')).toBe('$5.00');
    expect(formatMoney(en, 7000, 'EUR')).toBe('€70.00');
    expect(formatMoney(en, 500, 'jpy')).toBe('¥500');
  });

  it('credits: totals with two decimals, small charges with their digits', () => {
    expect(formatCredits(en, 1234.567)).toBe('1,234.57');
    expect(formatFineCredits(en, 0.00204)).toBe('0.00204');
    expect(formatFineCredits(en, 12.3456)).toBe('12.35');
    expect(formatFineCredits(en, 0)).toBe('0');
  });

  it('days and months', () => {
    expect(isoDay(new Date(2026, 0, 5))).toBe('2026-01-05');
    expect(formatMonth(en, '2026-11-01')).toBe('Nov 2026');
  });
});
