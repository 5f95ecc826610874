import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api, testUser } from '../../test/handlers';
import { renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import type { BetaInterestRequest, InvitationCode, InviteOut } from './betaTypes';

const code = (over: Partial<InvitationCode> = {}): InvitationCode => ({
  id: 'c-1',
  code: 'STEP-7K2M-Q9XD',
  max_uses: 1,
  uses: 0,
  expires_at: null,
  note: null,
  state: 'active',
  created_at: '2026-11-20T10:00:00.000Z',
  created_by_name: 'Ada Lovelace',
  uses_by: [],
  ...over,
});

const pageOf = <T,>(items: T[]) => ({ items, total: items.length, page: 1, page_size: 20 });

beforeEach(() => {
  localStorage.setItem('accessToken', 'good');
  server.use(http.get(api('/users/me'), () => HttpResponse.json({ ...testUser, role: 'admin' })));
});

describe('invitation codes (admin)', () => {
  it('creates codes, copies one, and lists every code with its state and who used it', async () => {
    const codes: InvitationCode[] = [
      code({
        id: 'c-0',
        code: 'STEP-AAAA-BBBB',
        max_uses: 3,
        uses: 3,
        state: 'used_up',
        note: 'Meetup',
        uses_by: [{ name: 'Grace Hopper', email: 'grace@example.com', used_at: '2026-11-21T10:00:00.000Z' }],
      }),
    ];
    let created: unknown = null;
    server.use(
      http.get(api('/beta-interest/admin/invitation-codes'), () => HttpResponse.json(pageOf(codes))),
      http.get(api('/beta-interest/admin/requests'), () => HttpResponse.json(pageOf([]))),
      http.post(api('/beta-interest/admin/invitation-codes'), async ({ request }) => {
        created = await request.json();
        const fresh = [
          code({ id: 'c-1', code: 'STEP-7K2M-Q9XD', max_uses: 5, note: 'Berlin' }),
          code({ id: 'c-2', code: 'STEP-H3PR-W8ZN', max_uses: 5, note: 'Berlin' }),
        ];
        codes.unshift(...fresh);
        return HttpResponse.json({ items: fresh }, { status: 201 });
      }),
    );
    const { user } = renderApp({ route: '/admin/invitation-codes' });

    const table = await screen.findByRole('table', { name: 'All codes' });
    const used = within(table).getByRole('row', { name: 'STEP-AAAA-BBBB' });
    expect(within(used).getByText('Used up')).toBeInTheDocument();
    expect(within(used).getByText('3 / 3')).toBeInTheDocument();
    expect(within(used).getByText(/Grace Hopper/)).toBeInTheDocument();
    expect(within(used).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Invitation codes' })).toHaveAttribute('aria-selected', 'true');

    await user.clear(screen.getByLabelText('How many codes'));
    await user.type(screen.getByLabelText('How many codes'), '2');
    await user.clear(screen.getByLabelText('Uses per code'));
    await user.type(screen.getByLabelText('Uses per code'), '5');
    await user.type(screen.getByLabelText('Expires on (optional)'), '2099-12-31');
    await user.type(screen.getByLabelText('Note (optional)'), 'Berlin');
    await user.click(screen.getByRole('button', { name: 'Create codes' }));

    const fresh = await screen.findByRole('list', { name: 'New codes' });
    expect(screen.getByText('2 codes created')).toBeInTheDocument();
    expect(within(fresh).getByText('STEP-7K2M-Q9XD')).toBeInTheDocument();
    expect(within(fresh).getByText('STEP-H3PR-W8ZN')).toBeInTheDocument();
    expect(created).toEqual({ count: 2, max_uses: 5, expires_at: new Date('2099-12-31T23:59:59').toISOString(), note: 'Berlin' });

    // user-event puts a clipboard in place of the browser's; what is written to it is what counts.
    const writeText = jest.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(fresh).getByRole('button', { name: 'Copy STEP-H3PR-W8ZN' }));
    expect(writeText).toHaveBeenCalledWith('STEP-H3PR-W8ZN');
    expect(within(fresh).getByRole('button', { name: 'Copied' })).toBeInTheDocument();

    // The list refreshes with the new ones, active and unused.
    const row = await within(table).findByRole('row', { name: 'STEP-7K2M-Q9XD' });
    expect(within(row).getByText('Active')).toBeInTheDocument();
    expect(within(row).getByText('0 / 5')).toBeInTheDocument();
  });

  it('refuses a count out of range without calling the server, and revokes a code after asking', async () => {
    const codes = [code()];
    let posted = false;
    server.use(
      http.get(api('/beta-interest/admin/invitation-codes'), () => HttpResponse.json(pageOf(codes))),
      http.get(api('/beta-interest/admin/requests'), () => HttpResponse.json(pageOf([]))),
      http.post(api('/beta-interest/admin/invitation-codes'), () => {
        posted = true;
        return HttpResponse.json({ items: [] }, { status: 201 });
      }),
      http.post(api('/beta-interest/admin/invitation-codes/c-1/revoke'), () => {
        codes[0] = code({ state: 'revoked' });
        return HttpResponse.json(codes[0]);
      }),
    );
    const { user } = renderApp({ route: '/admin/invitation-codes' });
    await screen.findByRole('table', { name: 'All codes' });
    await user.clear(screen.getByLabelText('How many codes'));
    await user.type(screen.getByLabelText('How many codes'), '500');
    await user.click(screen.getByRole('button', { name: 'Create codes' }));
    expect(screen.getByText('Enter a whole number from 1 to 100.')).toBeInTheDocument();
    expect(posted).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Revoke STEP-7K2M-Q9XD' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke this code?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    const row = screen.getByRole('row', { name: 'STEP-7K2M-Q9XD' });
    expect(await within(row).findByText('Revoked')).toBeInTheDocument();
  });

  it('lists beta requests and invites one', async () => {
    const requests: BetaInterestRequest[] = [
      {
        id: 'b-1',
        user: { id: 'u-9', name: 'Katherine Johnson', email: 'kj@example.com' },
        use_case: 'Clean survey data',
        company: 'NASA',
        heard_from: 'A friend',
        status: 'pending',
        created_at: '2026-11-20T10:00:00.000Z',
      },
    ];
    let invited = false;
    server.use(
      http.get(api('/beta-interest/admin/invitation-codes'), () => HttpResponse.json(pageOf([]))),
      http.get(api('/beta-interest/admin/requests'), () => HttpResponse.json(pageOf(requests))),
      http.post(api('/beta-interest/admin/requests/b-1/invite'), () => {
        invited = true;
        requests[0] = { ...requests[0], status: 'invited' };
        const answer: InviteOut = { request: requests[0], code: code({ id: 'c-9', note: 'Katherine Johnson' }), message: 'Invitation sent to kj@example.com.' };
        return HttpResponse.json(answer);
      }),
    );
    const { user } = renderApp({ route: '/admin/invitation-codes' });
    const row = await screen.findByRole('row', { name: 'Katherine Johnson' });
    expect(within(row).getByText('Clean survey data')).toBeInTheDocument();
    expect(within(row).getByText('NASA')).toBeInTheDocument();
    expect(within(row).getByText('Waiting')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Invite Katherine Johnson' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Invitation sent to kj@example.com.');
    await waitFor(() => expect(within(screen.getByRole('row', { name: 'Katherine Johnson' })).getByText('Invited')).toBeInTheDocument());
    expect(invited).toBe(true);
    expect(screen.queryByRole('button', { name: 'Invite Katherine Johnson' })).not.toBeInTheDocument();
  });

  it('shows requests from visitors without an account beside users’ (by email when they gave no name)', async () => {
    const visitor = (id: string, name: string | null, email: string): BetaInterestRequest => ({
      id,
      user: { id: null, name, email },
      use_case: 'Tidy exports',
      company: null,
      heard_from: null,
      status: 'pending',
      created_at: '2026-11-21T10:00:00.000Z',
    });
    server.use(
      http.get(api('/beta-interest/admin/invitation-codes'), () => HttpResponse.json(pageOf([]))),
      http.get(api('/beta-interest/admin/requests'), () =>
        HttpResponse.json(pageOf([visitor('b-2', 'Vera Visitor', 'vera@example.com'), visitor('b-3', null, 'anon@example.com')])),
      ),
    );
    renderApp({ route: '/admin/invitation-codes' });
    const named = await screen.findByRole('row', { name: 'Vera Visitor' });
    expect(within(named).getByText('vera@example.com')).toBeInTheDocument();
    expect(within(named).getByText('No account yet')).toBeInTheDocument();
    const nameless = screen.getByRole('row', { name: 'anon@example.com' });
    expect(within(nameless).getByRole('button', { name: 'Invite anon@example.com' })).toBeInTheDocument();
  });
});
