import { catalogs } from './catalogs';

// No defaultMessage fallbacks exist in the app, so the two catalogs must cover the same keys.

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();
const tags = (text: string) => [...text.matchAll(/<(\w+)>/g)].map((m) => m[1]).sort();

describe('i18n catalogs', () => {
  const en = catalogs.en;
  const cn = catalogs.cn;

  it('have exactly the same keys', () => {
    expect(Object.keys(cn).sort()).toEqual(Object.keys(en).sort());
  });

  it('have no empty values', () => {
    for (const catalog of [en, cn]) {
      for (const [key, value] of Object.entries(catalog)) {
        expect([key, typeof value === 'string' && value.trim().length > 0]).toEqual([key, true]);
      }
    }
  });

  it('use the same placeholders and tags in both languages', () => {
    for (const key of Object.keys(en)) {
      expect([key, placeholders(cn[key] ?? '')]).toEqual([key, placeholders(en[key])]);
      expect([key, tags(cn[key] ?? '')]).toEqual([key, tags(en[key])]);
    }
  });

  it('are flat: every value is a string', () => {
    for (const catalog of [en, cn]) expect(Object.values(catalog).every((v) => typeof v === 'string')).toBe(true);
  });

  it('keep the spec texts exactly (spec §8)', () => {
    expect(en['notices.networkError']).toBe('Network error. Please check your connection.');
    expect(en['notices.unauthorized']).toBe('Unauthorized. Redirecting to login...');
    expect(en['notices.unexpectedError']).toBe('Error {status}: An unexpected error occurred.');
    expect(en['notices.errorWithMessage']).toBe('Error {status}: {message}');
    expect(en['auth.loadUserFailed']).toBe('Failed to load user');
  });
});
