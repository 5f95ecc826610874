import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { accountIn, api } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { browserNavigation } from '../payments/checkoutUrl';
import { balanceOf, billingHandlers, usageRecord, usageSummary } from './billingFixtures';

describe('billing page', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'good'));

  // Over Jest’s 5 s on a loaded machine: the billing page's first render in this file, with its chart (past 5 s in CI, 2026-11-28).
  it('shows the balance, the usage chart and the usage rows with their run', async () => {
    server.use(...billingHandlers());
    renderApp({ route: '/billing' });
    expect(await screen.findByRole('heading', { name: 'Billing', level: 1 })).toBeInTheDocument();
    expect(await screen.findByTestId('balance')).toHaveTextContent('1,234.5 credits');
    // The chart (its own chunk) draws the workflow's series, named in its legend.
    const chart = screen.getByRole('figure', { name: 'Usage chart' });
    expect(await within(chart).findByText('Lead enrichment')).toBeInTheDocument();
    expect(await screen.findByTestId('usage-total')).toHaveTextContent('2.5 credits spent from Oct 26, 2026 to Nov 24, 2026');

    const records = await screen.findByRole('table', { name: 'Usage records' });
    const row = (await within(records).findByText('Lead enrichment')).closest('tr')!;
    expect(within(row).getByText('Ask AI')).toBeInTheDocument();
    expect(within(row).getByText('250 records')).toBeInTheDocument();
    expect(within(row).getByText('0.01')).toBeInTheDocument();
    expect(within(row).getByText('2.5')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Open run' })).toHaveAttribute('href', '/workflows/wf-1?run=run-1');

    const payments = await screen.findByRole('table', { name: 'Payments' });
    expect(await within(payments).findByText('$5.00')).toBeInTheDocument();
    expect(within(payments).getByText('Paid')).toBeInTheDocument();
  }, 15_000);

  it('filters the usage rows by dates and workflow, from the first page', async () => {
    const asked: Record<string, string>[] = [];
    server.use(
      http.get(api('/workflows'), () => HttpResponse.json({ items: [{ id: 'wf-1', name: 'Lead enrichment' }], total: 1, page: 1, page_size: 200 })),
      http.get(api('/usage-records/'), ({ request }) => {
        asked.push(Object.fromEntries(new URL(request.url).searchParams));
        return HttpResponse.json({ items: [usageRecord], total: 1, page: 1, page_size: 20 });
      }),
      ...billingHandlers(),
    );
    const { user } = renderApp({ route: '/billing' });
    const workflow = await screen.findByLabelText('Workflow');
    await screen.findByRole('option', { name: 'Lead enrichment' });
    await user.selectOptions(workflow, 'wf-1');
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await waitFor(() => expect(asked.at(-1)).toEqual({ page: '1', page_size: '20', workflow_id: 'wf-1', start_date: '2026-11-01' }));
  });

  it('switches the chart between time periods, stacking, and a by-workflow view', async () => {
    const asked: string[] = [];
    server.use(
      http.get(api('/balance/usage-summary'), ({ request }) => {
        const query = new URL(request.url).searchParams;
        asked.push(`${query.get('period')} ${query.get('group_by')}`);
        return HttpResponse.json({ ...usageSummary, period: query.get('period'), group_by: query.get('group_by') });
      }),
      ...billingHandlers(),
    );
    const { user } = renderApp({ route: '/billing' });
    await screen.findByTestId('usage-total');
    await user.selectOptions(screen.getByLabelText('Period'), 'week');
    await user.selectOptions(screen.getByLabelText('Stack by'), 'step_type');
    await user.click(screen.getByRole('button', { name: 'By workflow' }));
    expect(screen.getByRole('button', { name: 'By workflow' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Pie' }));
    expect(screen.getByRole('button', { name: 'Pie' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(asked).toEqual(['day workflow', 'week workflow', 'week step_type']));
    expect(screen.getByRole('figure', { name: 'Usage chart' })).toBeInTheDocument();
  });

  it('says when billing is off (self-hosted) and offers no top-up', async () => {
    server.use(...billingHandlers({ balance: balanceOf({ balance: 0, billing_enabled: false }) }));
    renderApp({ route: '/billing' });
    expect(await screen.findByText('This server is self-hosted with billing turned off: runs need no credits.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Top up' })).not.toBeInTheDocument();
  });

  it('tells how many runs wait for credits', async () => {
    server.use(...billingHandlers({ balance: balanceOf({ balance: 0, paused_runs: 2 }) }));
    renderApp({ route: '/billing' });
    expect(await screen.findByTestId('paused-runs')).toHaveTextContent('2 runs are paused until you add credits');
  });

  it('top up: creates a checkout session for the pack and opens the test checkout', async () => {
    let sent: unknown = null;
    server.use(
      ...billingHandlers(),
      http.post(api('/payments/create-checkout-session'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ id: 'pay-2', checkout_url: '/billing/test-checkout/pay-2', mode: 'test' });
      }),
      http.get(api('/payments/test-checkout/pay-2'), () =>
        HttpResponse.json({ id: 'pay-2', pack_name: 'Team', credits: 2500, amount_cents: 2000, currency: 'usd', status: 'pending', test_mode: true }),
      ),
    );
    const { user } = renderApp({ route: '/billing' });
    expect(await screen.findByText('Test mode')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Buy Team' }));
    await waitFor(() => expect(currentLocation()).toBe('/billing/test-checkout/pay-2'));
    expect(sent).toEqual({ pack_id: 'team', success_path: '/billing?payment=success', cancel_path: '/billing?payment=cancelled' });
    expect(await screen.findByText('TEST MODE')).toBeInTheDocument();
  });

  it('top up with Stripe: the browser leaves for the hosted checkout', async () => {
    const leaveFor = jest.spyOn(browserNavigation, 'leaveFor').mockImplementation(() => undefined);
    server.use(
      ...billingHandlers(),
      http.post(api('/payments/create-checkout-session'), () =>
        HttpResponse.json({ id: 'pay-3', checkout_url: 'https://checkout.stripe.com/c/pay/cs_test_1', mode: 'stripe' }),
      ),
    );
    const { user } = renderApp({ route: '/billing' });
    await user.click(await screen.findByRole('button', { name: 'Buy Starter' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'));
    expect(currentLocation()).toBe('/billing');
    leaveFor.mockRestore();
  });

  it('shows how the checkout ended, and the banner closes', async () => {
    server.use(...billingHandlers());
    const { user } = renderApp({ route: '/billing?payment=success' });
    expect(await screen.findByText('Payment received')).toBeInTheDocument();
    await user.click(within(screen.getByTestId('payment-banner')).getByRole('button', { name: 'Close' }));
    expect(currentLocation()).toBe('/billing');
    expect(screen.queryByText('Payment received')).not.toBeInTheDocument();
  });

  it('in Chinese under /cn', async () => {
    server.use(...billingHandlers({ balance: balanceOf({ paused_runs: 1 }) }));
    // A Chinese account: an English one is moved out of /cn once the app knows it (UserLocaleSync).
    server.use(accountIn('cn'));
    renderApp({ route: '/cn/billing?payment=cancelled' });
    expect(await screen.findByRole('heading', { name: '账单', level: 1 })).toBeInTheDocument();
    expect(await screen.findByTestId('balance')).toHaveTextContent('1,234.5 积分');
    expect(screen.getByText('已取消付款')).toBeInTheDocument();
    expect(screen.getByTestId('paused-runs')).toHaveTextContent('1 个运行因积分不足已暂停，充值后继续');
    expect(await screen.findByRole('table', { name: '用量记录' })).toBeInTheDocument();
    expect(await screen.findByText('250 条记录')).toBeInTheDocument();
  });
});
