import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { accountIn, api } from '../../test/handlers';
import { renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import type { BetaStatus } from './betaTypes';

beforeEach(() => localStorage.setItem('accessToken', 'good'));

describe('beta programme page', () => {
  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 3.2 s here beside the other worker (2026-11-28).
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
  }, 15_000);

  it('has nothing to ask of a member', async () => {
    server.use(http.get(api('/users/me/beta-status'), () => HttpResponse.json({ has_access: true, invite_only: true, status: 'member', requested_at: null })));
    renderApp({ route: '/beta' });
    expect(await screen.findByText('You are in the beta')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send request' })).not.toBeInTheDocument();
  });

  it('joins with an invitation code: a refused code shows the server’s reason under the field, a good one makes a member', async () => {
    let status: BetaStatus = { has_access: false, invite_only: true, status: 'invited', requested_at: '2026-11-20T09:00:00.000Z' };
    const sent: unknown[] = [];
    server.use(
      http.get(api('/users/me/beta-status'), () => HttpResponse.json(status)),
      http.post(api('/beta-interest/redeem'), async ({ request }) => {
        const body = (await request.json()) as { invitation_code: string };
        sent.push(body);
        if (body.invitation_code !== 'STEP-7K2M-Q9XD') {
          return HttpResponse.json({ errors: [{ msg: 'This invitation code has been used up.', loc: ['body', 'invitation_code'] }] }, { status: 422 });
        }
        status = { has_access: true, invite_only: true, status: 'member', requested_at: null };
        return HttpResponse.json(status);
      }),
    );
    const { user } = renderApp({ route: '/beta' });

    expect(await screen.findByText('You are invited')).toBeInTheDocument();
    const join = screen.getByRole('button', { name: 'Join with code' });
    await user.click(join);
    expect(screen.getByText('Enter the invitation code.')).toBeInTheDocument();
    expect(sent).toEqual([]);

    await user.type(screen.getByLabelText('Invitation code'), 'STEP-AAAA-BBBB');
    await user.click(join);
    expect(await screen.findByText('This invitation code has been used up.')).toBeInTheDocument();
    expect(screen.getByLabelText('Invitation code')).toHaveValue('STEP-AAAA-BBBB');

    await user.clear(screen.getByLabelText('Invitation code'));
    expect(screen.queryByText('This invitation code has been used up.')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Invitation code'), ' STEP-7K2M-Q9XD ');
    await user.click(join);

    expect(await screen.findByText('You are in the beta')).toBeInTheDocument();
    expect(sent).toEqual([{ invitation_code: 'STEP-AAAA-BBBB' }, { invitation_code: 'STEP-7K2M-Q9XD' }]);
    // A member has neither a code nor a request to send.
    expect(screen.queryByRole('button', { name: 'Join with code' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send request' })).not.toBeInTheDocument();
  });

  it('offers the code field in Chinese too', async () => {
    server.use(http.get(api('/users/me/beta-status'), () => HttpResponse.json({ has_access: true, invite_only: false, status: 'none', requested_at: null })));
    // A Chinese account: an English one is moved out of /cn once the app knows it (UserLocaleSync).
    server.use(accountIn('cn'));
    renderApp({ route: '/cn/beta' });
    expect(await screen.findByRole('heading', { name: '有邀请码？' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '使用邀请码加入' })).toBeInTheDocument();
  });
});
