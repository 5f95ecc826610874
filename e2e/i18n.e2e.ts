import { useE2E } from './support/stack';
import { htmlLang, pathOf, waitForHtmlLang, waitForPath } from './support/ui';

const e2e = useE2E();

// Texts from i18n/zh-CN.json: auth.login.title, auth.login.submit, auth.field.email,
// auth.field.password, auth.login.forgot.
const zh = { title: '欢迎回来', submit: '登录', email: '邮箱', password: '密码', forgot: '忘记密码？' };

describe('a Chinese browser', () => {
  e2e.test('opening /login lands on the Chinese sign-in page', async () => {
    const page = await e2e.newPage({ locale: 'zh-CN' });

    await page.goto('/login');

    await waitForPath(page, '/cn/login');
    await page.getByRole('heading', { name: zh.title, exact: true }).waitFor();
    await page.getByRole('button', { name: zh.submit, exact: true }).waitFor();
    await page.getByLabel(zh.email, { exact: true }).waitFor();
    await page.getByLabel(zh.password, { exact: true }).waitFor();
    await page.getByRole('link', { name: zh.forgot, exact: true }).waitFor();
    await waitForHtmlLang(page, 'zh-CN');
    // Nothing English is left on the form.
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(0);
  });

  e2e.test('a stored English choice (NEXT_LOCALE=en) wins over the browser language', async () => {
    const page = await e2e.newPage({ locale: 'zh-CN' });
    await page.context().addCookies([{ name: 'NEXT_LOCALE', value: 'en', url: e2e.baseUrl }]);

    await page.goto('/login');

    await page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(pathOf(page)).toBe('/login');
    await waitForHtmlLang(page, 'en');
  });

  e2e.test('the home page is not redirected', async () => {
    const page = await e2e.newPage({ locale: 'zh-CN' });

    await page.goto('/');

    // The English landing page: its h1 is rendered only once no redirect happened.
    await page.getByRole('heading', { level: 1, name: 'Turn raw data into results, one step at a time', exact: true }).waitFor();
    expect(pathOf(page)).toBe('/');
    expect(await htmlLang(page)).toBe('en');
  });
});
