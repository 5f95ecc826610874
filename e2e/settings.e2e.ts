import { getWithToken, logInViaApi, newAccount, signUpViaApi } from './support/api';
import { useE2E } from './support/stack';
import { seeNotice, storeToken, waitForHtmlLang, waitForPath } from './support/ui';

const e2e = useE2E();

describe('settings', () => {
  e2e.test('a user renames themselves and switches to Chinese', async () => {
    const account = await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Mary Jackson' }));
    const token = await logInViaApi(e2e.baseUrl, account);
    const page = await e2e.newPage();
    // Arrive signed in: the sign-in form itself is covered by auth.e2e.ts.
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor();
    await storeToken(page, token);

    await page.goto('/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings', exact: true }).waitFor();
    const displayName = page.getByLabel('Display name', { exact: true });
    const language = page.getByLabel('Language', { exact: true });
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await displayName.waitFor();
    expect(await displayName.inputValue()).toBe(account.name);
    expect(await save.isDisabled()).toBe(true);

    await displayName.fill('Mary W. Jackson');
    await language.selectOption({ label: '中文' });
    expect(await save.isEnabled()).toBe(true);
    await save.click();

    // The interface follows the saved language at once, and the server confirms in the language
    // just chosen (server.users.settingsSaved), in the now Chinese "Notifications" region.
    expect(await seeNotice(page, '设置已保存。', '通知')).toContain('设置已保存。');
    await waitForPath(page, '/cn/settings');
    await page.getByRole('heading', { level: 1, name: '设置', exact: true }).waitFor();
    await page.getByRole('button', { name: '保存', exact: true }).waitFor();
    expect(await page.getByLabel('显示名称', { exact: true }).inputValue()).toBe('Mary W. Jackson');
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '工作台' }).waitFor();
    await page.getByRole('button', { name: 'English', exact: true }).waitFor();
    await waitForHtmlLang(page, 'zh-CN');
    // The header shows the new name.
    await page.getByRole('button', { name: '账号菜单' }).waitFor();
    expect(await page.getByRole('button', { name: '账号菜单' }).textContent()).toContain('Mary W. Jackson');

    const saved = await getWithToken(e2e.baseUrl, '/api/v1/users/me/settings', token);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ display_name: 'Mary W. Jackson', locale: 'cn' });

    // The choice is remembered: an English URL now leads to the Chinese page.
    const cookies = await page.context().cookies(e2e.baseUrl);
    expect(cookies.find((c) => c.name === 'NEXT_LOCALE')?.value).toBe('cn');
    await page.goto('/settings');
    await waitForPath(page, '/cn/settings');
    await page.getByRole('heading', { level: 1, name: '设置', exact: true }).waitFor();
  });
});
