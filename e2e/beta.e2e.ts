import { logInViaApi, newAccount, signUpViaApi } from './support/api';
import { useE2E } from './support/stack';
import { signedInPage, waitForPath } from './support/ui';

// Invite-only mode: an admin makes an invitation code on the admin page; a visitor cannot sign up
// without one, and signs up with it (and is signed in); the code then shows as used, by them. A
// visitor without a code asks for one, signed out, from the sign-up page; the admin invites them.

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

    // A visitor: no code, no account. The form lets them try; the server says a code is needed.
    const visitor = newAccount({ name: 'Vera Visitor' });
    const page = await e2e.newPage();
    await page.goto('/signup');
    await page.getByLabel('Name', { exact: true }).fill(visitor.name);
    await page.getByLabel('Email', { exact: true }).fill(visitor.email);
    await page.getByLabel('Password', { exact: true }).fill(visitor.password);
    await page.getByLabel('Invitation code').waitFor();
    await page.getByRole('button', { name: 'Create account', exact: true }).click();
    await page.getByText('Signing up needs an invitation code during the beta.', { exact: false }).first().waitFor();
    // The notice names the field as the form does, not as the API spells it.
    expect(await page.getByText('invitation_code').count()).toBe(0);

    // With the code, the account is made and the visitor is signed in.
    await page.getByLabel('Invitation code').fill(code);
    await page.getByRole('button', { name: 'Create account', exact: true }).click();
    await waitForPath(page, '/');
    await page.goto('/beta');
    await page.getByText('You are in the beta').waitFor();

    // The admin sees the code used up, by the visitor.
    await admin.reload();
    const row = admin.getByRole('row').filter({ hasText: code });
    await row.getByText('Used up').waitFor();
    await row.getByTitle(visitor.email).getByText(visitor.name).waitFor();
  });

  e2e.test('a visitor without a code asks for one from the sign-up page; the admin sees the request and invites them', async () => {
    // The admin's account is the first journey's; made here when this one runs alone.
    await signUpViaApi(e2e.baseUrl, ADMIN).catch(() => undefined);
    const admin = await signedInPage(e2e, await logInViaApi(e2e.baseUrl, ADMIN));
    const visitor = newAccount({ name: 'Wanda Waiting' });
    const page = await e2e.newPage();
    await page.goto('/signup');
    await page.getByRole('link', { name: 'Ask for one' }).click();
    await waitForPath(page, '/request-invitation');
    // Its texts come with the rest of the catalog (a lazy page): typed before they were all in, the
    // email was lost in one run of three (see the stop note of 2026-11-27), so type once they are.
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Email', { exact: true }).fill(visitor.email);
    await page.getByLabel('Name (optional)').fill(visitor.name);
    await page.getByLabel('What would you use Stepwise for?').fill('Cleaning survey exports');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByRole('heading', { name: 'Request sent' }).waitFor();

    await admin.goto('/admin/invitation-codes');
    const row = admin.getByRole('row', { name: visitor.name });
    await row.getByText('No account yet').waitFor();
    await row.getByRole('button', { name: `Invite ${visitor.name}` }).click();
    await row.getByText('Invited').waitFor();
  });
});
