import { setUserRole } from '../server/src/modules/users/set-role';
import { logInViaApi, newAccount, signUpViaApi } from './support/api';
import { waitForEmail } from './support/mail';
import { useE2E } from './support/stack';
import { seeNotice, signedInPage } from './support/ui';

// A user writes to support from the contact page; a support agent finds it in the queue, answers
// it; the user is emailed and reads the answer in the app.

const e2e = useE2E();

describe('contact and support', () => {
  e2e.test('a user submits a query, support answers it from the queue, the user is emailed and sees the answer', async () => {
    const customer = await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Grace Hopper' }));
    const agent = await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Sam Support' }));
    await setUserRole(e2e.stack.app.db, agent.email, 'support');

    // The user writes in.
    const page = await signedInPage(e2e, await logInViaApi(e2e.baseUrl, customer));
    await page.goto('/contact');
    await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('Import stops at row 10,000');
    await page.getByLabel('Category').selectOption({ label: 'Technical problem' });
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('My CSV has 50,000 rows but the import step stops at 10,000.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await seeNotice(page, /.+/);
    const mine = page.getByRole('link', { name: 'Import stops at row 10,000' });
    await mine.waitFor();

    // A user sees no support queue.
    expect(await page.getByRole('link', { name: 'Support', exact: true }).count()).toBe(0);

    // Support answers it from the queue.
    const staff = await signedInPage(e2e, await logInViaApi(e2e.baseUrl, agent));
    await staff.goto('/support');
    await staff.getByRole('link', { name: 'Import stops at row 10,000' }).click();
    await staff.waitForURL(/\/support\/[0-9a-f-]{36}$/);
    await staff.getByText('My CSV has 50,000 rows but the import step stops at 10,000.').waitFor();
    await staff.getByLabel('Your reply').fill('Thanks! Raise the step’s row limit under Advanced; a fix for the default is on its way.');
    await staff.getByRole('button', { name: 'Send reply' }).click();
    await staff
      .getByRole('list', { name: 'Conversation' })
      .getByText(/Raise the step’s row limit/)
      .waitFor();
    // The query is read again after the reply: its status follows a moment later.
    const status = staff.getByLabel('Status');
    for (let tries = 0; tries < 50 && (await status.inputValue()) !== 'answered'; tries++) await staff.waitForTimeout(100);
    expect(await status.inputValue()).toBe('answered');

    // The user is emailed, and reads the answer in the app.
    const email = await waitForEmail(e2e.stack.dataDir, customer.email);
    expect(email).toMatch(/Import stops at row 10,000/);
    await mine.click();
    await page
      .getByRole('list', { name: 'Conversation' })
      .getByText(/Raise the step’s row limit/)
      .waitFor();
    await page.getByText('Answered').first().waitFor();
  });
});
