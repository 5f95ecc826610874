import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { accountIn, api } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { balanceOf, billingHandlers } from '../usage/billingFixtures';
import type { TestCheckout } from './paymentsApi';

const checkout: TestCheckout = { id: 'pay-2', pack_name: 'Team', credits: 2500, amount_cents: 2000, currency: 'usd', status: 'pending', test_mode: true };

describe('test checkout page', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'good'));

  it('is marked as test mode and shows the pack, credits and price', async () => {
    server.use(http.get(api('/payments/test-checkout/pay-2'), () => HttpResponse.json(checkout)));
    renderApp({ route: '/billing/test-checkout/pay-2' });
    expect(await screen.findByText('TEST MODE')).toBeInTheDocument();
    expect(screen.getByText(/Test mode — no real card is charged/)).toBeInTheDocument();
    expect(screen.getByText('Team')).toBeInTheDocument();
    expect(screen.getByText('2,500')).toBeInTheDocument();
    expect(screen.getByText('$20.00')).toBeInTheDocument();
  });

  it('Pay completes the payment and goes to the answered path, where the new balance shows', async () => {
    let completed = false;
    server.use(
      http.get(api('/payments/test-checkout/pay-2'), () => HttpResponse.json(checkout)),
      http.post(api('/payments/test-checkout/pay-2/complete'), () => {
        completed = true;
        return HttpResponse.json({ redirect_path: '/billing?payment=success' });
      }),
      http.get(api('/balance/'), () => HttpResponse.json(balanceOf({ balance: completed ? 3734.5 : 1234.5 }))),
      ...billingHandlers(),
    );
    const { user } = renderApp({ route: '/billing/test-checkout/pay-2' });
    await user.click(await screen.findByRole('button', { name: 'Pay $20.00' }));
    await waitFor(() => expect(currentLocation()).toBe('/billing?payment=success'));
    expect(completed).toBe(true);
    expect(await screen.findByText('Payment received')).toBeInTheDocument();
    expect(await screen.findByTestId('balance')).toHaveTextContent('3,734.5 credits');
  });

  it('Cancel cancels it and goes back, in Chinese under /cn', async () => {
    let cancelled = false;
    server.use(
      http.get(api('/payments/test-checkout/pay-2'), () => HttpResponse.json(checkout)),
      http.post(api('/payments/test-checkout/pay-2/cancel'), () => {
        cancelled = true;
        return HttpResponse.json({ redirect_path: '/cn/billing?payment=cancelled' });
      }),
      ...billingHandlers(),
    );
    // A Chinese account: an English one is moved out of /cn once the app knows it (UserLocaleSync).
    server.use(accountIn('cn'));
    const { user } = renderApp({ route: '/cn/billing/test-checkout/pay-2' });
    expect(await screen.findByText('测试模式')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: '取消' }));
    await waitFor(() => expect(currentLocation()).toBe('/cn/billing?payment=cancelled'));
    expect(cancelled).toBe(true);
    expect(await screen.findByText('已取消付款')).toBeInTheDocument();
  });

  it('a finished payment offers only the way back', async () => {
    server.use(http.get(api('/payments/test-checkout/pay-2'), () => HttpResponse.json({ ...checkout, status: 'succeeded' })));
    renderApp({ route: '/billing/test-checkout/pay-2' });
    expect(await screen.findByText('This payment is no longer open.')).toBeInTheDocument();
    expect(screen.getByText('Paid')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Pay/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to billing' })).toHaveAttribute('href', '/billing');
  });
});
