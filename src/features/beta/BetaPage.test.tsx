import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import { renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import type { BetaStatus } from './betaTypes';

beforeEach(() => localStorage.setItem('accessToken', 'good'));

describe('beta programme page', () => {
  it('shows the user’s status and sends a request to join, then shows it as received', async () => {
    let status: BetaStatus = { has_access: true, invite_only: false, status: 'none', requested_at: null };
    let sent: unknown = null;
    server.use(
      http.get(api('/users/me/beta-status'), () => HttpResponse.json(status)),
      http.post(api('/beta-interest/request'), async ({ request }) => {
        sent = await request.json();
        status = { ...status, status: 'requested', requested_at: '2026-11-24T09:00:00.000Z' };
        return HttpResponse.json({ status: 'pending', message: 'Thanks! We will email you when there is a place.' });
      }),
    );
    const { user } = renderApp({ route: '/beta' });

    expect(await screen.findByText('Not in the beta yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(screen.getByText('Tell us what you would use it for.')).toBeInTheDocument();
    expect(sent).toBeNull();

    await user.type(screen.getByLabelText('What would you use Stepwise for?'), 'Enrich our product catalogue with AI.');
    await user.type(screen.getByLabelText('How did you hear about us? (optional)'), 'A conference talk');
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Thanks! We will email you when there is a place.');
    // Optional fields left empty are not sent.
    expect(sent).toEqual({ use_case: 'Enrich our product catalogue with AI.', heard_from: 'A conference talk' });
    expect(await screen.findByText('Request received')).toBeInTheDocument();
    expect(screen.getByText('You asked to join on Nov 24, 2026. We will email you when there is a place.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Update request' })).toBeInTheDocument());
  });

  it('has nothing to ask of a member', async () => {
    server.use(http.get(api('/users/me/beta-status'), () => HttpResponse.json({ has_access: true, invite_only: true, status: 'member', requested_at: null })));
    renderApp({ route: '/beta' });
    expect(await screen.findByText('You are in the beta')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send request' })).not.toBeInTheDocument();
  });
});
