import { languageTag, localeFromPath, stripLocalePrefix, withLocalePrefix } from './locales';

describe('locale paths', () => {
  it('reads the language from the path prefix', () => {
    expect(localeFromPath('/cn')).toBe('cn');
    expect(localeFromPath('/cn/settings')).toBe('cn');
    expect(localeFromPath('/')).toBe('en');
    expect(localeFromPath('/cnx')).toBe('en');
    expect(localeFromPath('/settings')).toBe('en');
  });

  it('adds and removes the prefix', () => {
    expect(withLocalePrefix('/settings', 'cn')).toBe('/cn/settings');
    expect(withLocalePrefix('/', 'cn')).toBe('/cn');
    expect(withLocalePrefix('/cn/settings', 'cn')).toBe('/cn/settings');
    expect(withLocalePrefix('/cn/settings', 'en')).toBe('/settings');
    expect(withLocalePrefix('/cn', 'en')).toBe('/');
    expect(withLocalePrefix('/login', 'en')).toBe('/login');
    expect(stripLocalePrefix('/cn')).toBe('/');
    expect(stripLocalePrefix('/cn/login')).toBe('/login');
  });

  it('maps locales to language tags for Intl and Accept-Language', () => {
    expect(languageTag('cn')).toBe('zh-CN');
    expect(languageTag('en')).toBe('en');
  });
});
