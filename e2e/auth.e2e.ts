import { getWithToken, newAccount, signUpViaApi } from './support/api';
import { useE2E } from './support/stack';
import { dashboardHeading, notice, openMenu, pathOf, seeNotice, signInWithForm, storedToken, waitForPath } from './support/ui';

const e2e = useE2E();

describe('signing up, in and out', () => {
  e2e.test('a new user signs up and is signed in, sees the dashboard, signs out and back in', async () => {
    const account = newAccount({ name: 'Ada Lovelace' });
    const page = await e2e.newPage();

    await page.goto('/signup');
    await page.getByLabel('Name', { exact: true }).fill(account.name);
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Create account', exact: true }).click();

    // Signed in straight away, with the server's welcome, where a signed-in user lands.
    await dashboardHeading(page, account.name).waitFor();
    expect(pathOf(page)).toBe('/');
    expect(await seeNotice(page, 'Your account is ready. Welcome to Stepwise!')).toContain('Your account is ready. Welcome to Stepwise!');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).waitFor();
    const token = await storedToken(page);
    expect(token).toBeTruthy();
    expect((await getWithToken(e2e.baseUrl, '/api/v1/users/me', token!)).status).toBe(200);

    await (await openMenu(page, 'Account menu')).getByRole('menuitem', { name: 'Sign out' }).click();

    await waitForPath(page, '/login');
    expect(await seeNotice(page, 'You have been signed out.')).toContain('You have been signed out.');
    await page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor();
    expect(await storedToken(page)).toBeNull();
    // Signing out ended the session on the server too: the old token is refused.
    expect((await getWithToken(e2e.baseUrl, '/api/v1/users/me', token!)).status).toBe(401);

    await signInWithForm(page, account.email, account.password);
    await dashboardHeading(page, account.name).waitFor();
    expect(pathOf(page)).toBe('/');
    expect(await storedToken(page)).toBeTruthy();
  });

  e2e.test('a wrong password is refused with an explanation and nothing is stored', async () => {
    const account = await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Grace Hopper' }));
    const page = await e2e.newPage();

    await page.goto('/login');
    await signInWithForm(page, account.email, 'not the right password');

    expect(await seeNotice(page, 'Incorrect email or password.')).toContain('Incorrect email or password.');
    expect(pathOf(page)).toBe('/login');
    await page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor();
    expect(await storedToken(page)).toBeNull();
    // The form is ready for another try: the button is usable again and the email is kept.
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).isEnabled()).toBe(true);
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(account.email);
    // A wrong password is not a "session ended" case: no redirect notice.
    expect(await notice(page, 'Unauthorized. Redirecting to login...').count()).toBe(0);
  });

  e2e.test('a rejected stored token sends the user to sign in and is removed', async () => {
    const page = await e2e.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor();
    await page.evaluate(() => localStorage.setItem('accessToken', 'garbage-token-from-an-old-session'));

    await page.goto('/settings');

    expect(await seeNotice(page, 'Unauthorized. Redirecting to login...')).toContain('Unauthorized. Redirecting to login...');
    await waitForPath(page, '/login');
    await page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor();
    expect(await storedToken(page)).toBeNull();
  });
});
