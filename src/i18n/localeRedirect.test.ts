import { localeRedirectTarget } from './localeRedirect';

describe('localeRedirectTarget (spec §2)', () => {
  it.each([
    // [pathname, search, hash, stored preference, browser language, expected]
    ['/', '', '', 'cn', 'zh-CN', null], // the home page never redirects
    ['/', '?a=1', '#x', null, 'zh', null],
    ['/cn', '', '', 'cn', 'zh-CN', null], // already Chinese
    ['/cn/login', '', '', 'cn', 'zh-CN', null],
    ['/cn/settings', '', '', 'en', 'en-US', null],
    ['/login', '', '', 'cn', 'en-US', '/cn/login'], // stored cn wins over an English browser
    ['/login', '', '', 'cn', null, '/cn/login'],
    ['/settings', '?tab=profile', '#theme', 'cn', 'en', '/cn/settings?tab=profile#theme'], // path, query, hash kept
    ['/login', '', '', null, 'zh-CN', '/cn/login'], // no preference, Chinese browser
    ['/login', '', '', null, 'zh-TW', '/cn/login'],
    ['/login', '', '', null, 'zh', '/cn/login'],
    ['/login', '', '', null, 'ZH-cn', '/cn/login'],
    ['/reset-password', '?token=abc', '', null, 'zh-Hans-CN', '/cn/reset-password?token=abc'],
    ['/login', '', '', 'en', 'zh-CN', null], // stored en wins over a Chinese browser
    ['/login', '', '', null, 'en-US', null],
    ['/login', '', '', null, 'fr', null],
    ['/login', '', '', null, '', null],
    ['/login', '', '', null, undefined, null],
    ['/login', '', '', null, 'xzh', null], // must *start* with zh
    ['/cnx', '', '', 'cn', 'en', '/cn/cnx'], // /cnx is not under /cn
    ['/does/not/exist', '', '', 'cn', 'en', '/cn/does/not/exist'],
  ] as const)('%s%s%s, pref %s, browser %s → %s', (pathname, search, hash, pref, lang, expected) => {
    expect(localeRedirectTarget(pathname, search, hash, pref, lang)).toBe(expected);
  });
});
