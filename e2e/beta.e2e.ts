import { logInViaApi, newAccount, signUpViaApi } from './support/api';
import { useE2E } from './support/stack';
import { signedInPage, waitForPath } from './support/ui';

// Invite-only mode: an admin makes an invitation code on the admin page; a visitor cannot sign up
// without one, and signs up with it; the code then shows as used, by them.

const ADMIN = newAccount({ name: 'Ada Admin', email: `admin-${Date.now().toString(36)}@example.com` });
const e2e = useE2E({ BETA_INVITE_ONLY: 'true', ADMIN_EMAILS: ADMIN.email });

describe('the invite-only beta', () => {
  e2e.test('an admin creates an invitation code, a visitor signs up with it, the code is then used up', async () => {
    const admin = await signedInPage(e2e, await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, ADMIN)));
    await admin.goto('/admin/invitation-codes');
    await admin.getByLabel('How many codes').fill('1');
    await admin.getByLabel('Uses per code').fill('1');
    await admin.getByLabel('Note (optional)').fill('Meetup in Berlin');
    await admin.getByRole('button', { name: 'Create codes' }).click();
    const created = admin.getByRole('list', { name: 'New codes' });
    const code = (
      (await created
        .getByText(/^STEP-[A-Z0-9]{4}-[A-Z0-9]{4}$/)
        .first()
        .textContent()) ?? ''
    ).trim();
    expect(code).toMatch(/^STEP-[A-Z0-9]{4}-[A-Z0-9]{4}$/);

    // A visitor: no code, no account.
    const visitor = newAccount({ name: 'Vera Visitor' });
    const page = await e2e.newPage();
    await page.goto('/signup');
    await page.getByLabel('Name', { exact: true }).fill(visitor.name);
    await page.getByLabel('Email', { exact: true }).fill(visitor.email);
    await page.getByLabel('Password', { exact: true }).fill(visitor.password);
    await page.getByLabel('Invitation code').waitFor();
    await page.getByRole('button', { name: 'Create account', exact: true }).click();
    await page.getByText('Enter your invitation code.').waitFor();

    // With the code, the account is made and the visitor is in.
    await page.getByLabel('Invitation code').fill(code);
    await page.getByRole('button', { name: 'Create account', exact: true }).click();
    await waitForPath(page, '/login');
    // Sent on to sign in with the email filled in (as auth.e2e.ts): type the password once the form holds it.
    await page.getByRole('heading', { name: 'Welcome back', exact: true }).waitFor();
    await page.waitForFunction(
      (email) => (document.querySelector('input[type="email"], input[name="email"]') as HTMLInputElement | null)?.value === email,
      visitor.email,
    );
    await page.getByLabel('Password', { exact: true }).fill(visitor.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await waitForPath(page, '/');
    await page.goto('/beta');
    await page.getByText('You are in the beta').waitFor();

    // The admin sees the code used up, by the visitor.
    await admin.reload();
    const row = admin.getByRole('row').filter({ hasText: code });
    await row.getByText('Used up').waitFor();
    await row.getByTitle(visitor.email).getByText(visitor.name).waitFor();
  });
});
