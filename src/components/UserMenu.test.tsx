import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { currentLocation, renderWithProviders, signedInState } from '../test/renderWithProviders';
import { api, testUser } from '../test/handlers';
import { server } from '../test/server';
import { initials } from './initials';
import { UserMenu } from './UserMenu';

describe('avatar initials', () => {
  it('takes whole graphemes, so an emoji is never cut in half', () => {
    expect(initials('鲍勃 Bob 🦊')).toBe('鲍🦊');
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('  Ada  ')).toBe('A');
    expect(initials('👩‍👩‍👧 Family')).toBe('👩‍👩‍👧F');
    expect(initials('')).toBe('');
  });

  it("shows the user's initials without a broken character in the header menu", () => {
    renderWithProviders(<UserMenu />, { preloadedState: signedInState({ ...testUser, name: '鲍勃 Bob 🦊' }) });
    const button = screen.getByRole('button', { name: /account|账户|账号/i });
    expect(button.textContent).toContain('鲍🦊');
    expect(button.textContent).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('balance in the user menu', () => {
  it('shows the credits and opens the billing page', async () => {
    server.use(http.get(api('/balance/'), () => HttpResponse.json({ balance: 42.25, billing_enabled: true, paused_runs: 0 })));
    const { user } = renderWithProviders(<UserMenu />, { preloadedState: signedInState(testUser), route: '/cn/settings' });
    await user.click(screen.getByRole('button', { name: /账户|账号|account/i }));
    expect(await screen.findByTestId('menu-balance')).toHaveTextContent('42.25 积分');
    await user.click(screen.getByRole('menuitem', { name: /账单/ }));
    await waitFor(() => expect(currentLocation()).toBe('/cn/billing'));
  });

  it('shows no balance on a server without billing', async () => {
    const { user } = renderWithProviders(<UserMenu />, { preloadedState: signedInState(testUser) });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Billing' })).toBeInTheDocument();
    expect(screen.queryByTestId('menu-balance')).not.toBeInTheDocument();
  });
});
