import { logInViaApi, newAccount, sendWithToken, signUpViaApi } from './support/api';
import { useE2E } from './support/stack';
import { signedInPage, waitForPath } from './support/ui';

// Credits in test mode (no Stripe keys, STRIPE_TEST_CHECKOUT=true; a default install has billing
// off): the built-in test checkout pays for a pack and delivers a signed webhook to the same handler
// Stripe would call; the balance on the billing page changes.
// A run the balance cannot cover is refused with a modal whose "Top up" leads to billing.

const e2e = useE2E({
  IN_PROCESS_WORKER: 'true',
  BILLING_ENABLED: 'true',
  STRIPE_TEST_CHECKOUT: 'true',
  BILLING_SIGNUP_CREDITS: '100',
  STEP_PRICES: JSON.stringify({ filter: 5000 }),
});

describe('credits and top-ups', () => {
  e2e.test('top up in test mode: pay on the test checkout and see the balance grow', async () => {
    const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Mary Jackson' })));
    const page = await signedInPage(e2e, token);
    await page.goto('/billing');
    const balance = page.getByTestId('balance');
    await balance.getByText('100 credits').waitFor();

    await page.getByRole('button', { name: /^Buy Starter/ }).click();
    await page.waitForURL(/\/billing\/test-checkout\/[0-9a-f-]{36}$/);
    await page.getByText('TEST MODE', { exact: true }).waitFor();
    await page.getByRole('button', { name: /^Pay / }).click();
    await waitForPath(page, '/billing');
    await page.getByText('Payment received').waitFor();
    await balance.getByText('600 credits').waitFor();
    const payments = page.getByRole('table', { name: 'Payments' });
    await payments.getByText('Paid', { exact: true }).waitFor();
  });

  e2e.test('a run the balance cannot cover is refused with a modal; Top up opens billing', async () => {
    const token = await logInViaApi(e2e.baseUrl, await signUpViaApi(e2e.baseUrl, newAccount({ name: 'Dorothy Vaughan' })));
    const api = (method: string, pathname: string, body?: unknown) => sendWithToken(e2e.baseUrl, token, method, `/api/v1${pathname}`, body);
    const workflow = await api('POST', '/workflows/', { name: 'Expensive filter' });
    const rows = await api('POST', '/workflow-steps/', {
      workflow_id: workflow.id,
      step_type: 'table_input',
      name: 'Numbers',
      position: { x: 0, y: 0 },
      param_inputs: { columns: [{ name: 'n', type: 'integer' }], rows: [[1], [2], [3]] },
    });
    await api('POST', '/workflow-steps/', {
      workflow_id: workflow.id,
      step_type: 'filter',
      name: 'Big ones',
      inputs: [rows.id],
      position: { x: 0, y: 160 },
      param_inputs: { condition: 'n > 1' },
    });

    const page = await signedInPage(e2e, token);
    await page.goto(`/workflows/${workflow.id as string}`);
    await page.getByTestId('step-node').nth(1).waitFor();
    await page.getByRole('button', { name: 'Run workflow' }).click();
    const modal = page.getByRole('alertdialog');
    await modal.getByText('Warning').waitFor();
    await modal.getByRole('button', { name: 'Top up' }).click();
    await waitForPath(page, '/billing');
  });
});
