import { logInViaApi, newAccount, signUpViaApi } from './support/api';
import { resetLinkIn, waitForEmail } from './support/mail';
import { useE2E } from './support/stack';
import { dashboardHeading, seeNotice, signInWithForm, storedToken, waitForPath } from './support/ui';

const e2e = useE2E();

describe('forgotten password', () => {
  e2e.test('a user resets the password from the emailed link and signs in with the new one', async () => {
    const account = await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Katherine Johnson' }));
    const newPassword = 'a brand new passphrase';
    const page = await e2e.newPage();

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?', exact: true }).click();
    await waitForPath(page, '/forgot-password');
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByRole('button', { name: 'Send reset link', exact: true }).click();

    expect(await seeNotice(page, 'If an account exists for this email, we have sent it a link to reset the password.')).toBeTruthy();
    await page.getByText('Check your email', { exact: true }).waitFor();
    await page.getByText(account.email).first().waitFor();

    // The server has no SMTP_URL here: the message is in DATA_DIR/outbox.
    const email = await waitForEmail(e2e.stack.dataDir, account.email);
    const link = resetLinkIn(email);
    expect(link.startsWith(`${e2e.baseUrl}/reset-password?token=`)).toBe(true);

    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Set new password', exact: true }).click();

    await waitForPath(page, '/login');
    expect(await seeNotice(page, 'Your password has been changed. Please sign in with the new one.')).toBeTruthy();

    // The old password no longer works, the new one does.
    await expect(logInViaApi(e2e.baseUrl, account)).rejects.toThrow(/HTTP 200, got 401/);
    await signInWithForm(page, account.email, newPassword);
    await dashboardHeading(page, account.name).waitFor();
    expect(await storedToken(page)).toBeTruthy();

    // The link was for one use only.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('yet another passphrase');
    await page.getByLabel('Confirm password', { exact: true }).fill('yet another passphrase');
    await page.getByRole('button', { name: 'Set new password', exact: true }).click();
    expect(await seeNotice(page, 'This reset link is invalid or has expired. Please request a new one.')).toBeTruthy();
  });
});
