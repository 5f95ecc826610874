import { loadCatalog, loadedCatalog, type Catalog } from './catalogs';

// No defaultMessage fallbacks exist in the app, so the two catalogs must cover the same keys.

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();
const tags = (text: string) => [...text.matchAll(/<(\w+)>/g)].map((m) => m[1]).sort();

describe('i18n catalogs', () => {
  let en: Catalog;
  let cn: Catalog;
  beforeAll(async () => {
    en = await loadCatalog('en');
    cn = await loadCatalog('cn');
  });

  it('load Chinese only when asked: English is in the first download, Chinese is fetched on demand', async () => {
    await jest.isolateModulesAsync(async () => {
      const fresh = await import('./catalogs');
      expect(fresh.loadedCatalog('en')?.['auth.login.submit']).toBe('Sign in');
      expect(fresh.loadedCatalog('cn')).toBeUndefined();
      const loading = fresh.loadCatalog('cn');
      expect(fresh.loadCatalog('cn')).toBe(loading);
      expect((await loading)['auth.login.submit']).toBe(loadedCatalog('cn')?.['auth.login.submit']);
      expect(fresh.loadedCatalog('cn')).toBe(await loading);
    });
  });

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
