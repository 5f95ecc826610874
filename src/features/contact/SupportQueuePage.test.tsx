import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Role } from '../../app/roles';
import { api, testUser } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { fullQuery, pageOf, querySummary } from './contactFixtures';
import type { ContactQueryOut as ContactQuery } from './contactTypes';

const signedInAs = (role: Role) => {
  localStorage.setItem('accessToken', 'good');
  server.use(http.get(api('/users/me'), () => HttpResponse.json({ ...testUser, role })));
};

const grace = { id: 'u-2', name: 'Grace Hopper', email: 'grace@example.com' };

describe('support queue', () => {
  it('lists open queries first and narrows them by status, category and search', async () => {
    signedInAs('support');
    const asked: URLSearchParams[] = [];
    server.use(
      http.get(api('/contact/admin/all'), ({ request }) => {
        const query = new URL(request.url).searchParams;
        asked.push(query);
        const status = query.get('status');
        return HttpResponse.json(
          pageOf(
            status === 'closed'
              ? [{ ...querySummary({ id: 'q-2', subject: 'Old question', status: 'closed', category: 'billing' }), user: grace }]
              : [{ ...querySummary({ reply_count: 0 }), user: grace }],
          ),
        );
      }),
    );
    const { user } = renderApp({ route: '/support' });

    const table = await screen.findByRole('table', { name: 'Support queue' });
    expect(asked[0].get('status')).toBe('open');
    expect(screen.getByLabelText('Status')).toHaveValue('open');
    const row = within(table).getByRole('link', { name: 'Import fails on a large CSV' }).closest('tr')!;
    expect(within(row).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(row).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(row).getByText('Open')).toBeInTheDocument();
    expect(within(row).getByText('Technical problem')).toBeInTheDocument();
    expect(within(row).getByRole('time')).toHaveAttribute('datetime', '2026-11-20T10:00:00.000Z');
    expect(within(row).getByRole('link', { name: 'Import fails on a large CSV' })).toHaveAttribute('href', '/support/q-1');

    await user.selectOptions(screen.getByLabelText('Status'), 'Closed');
    expect(await within(table).findByRole('link', { name: 'Old question' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Category'), 'Billing');
    await user.type(screen.getByRole('searchbox', { name: 'Search queries' }), 'invoice');
    await waitFor(() => expect(asked.at(-1)?.get('search')).toBe('invoice'));
    const last = asked.at(-1)!;
    expect([last.get('status'), last.get('category'), last.get('page')]).toEqual(['closed', 'billing', '1']);
  });

  it('answers a query as support and changes its status', async () => {
    signedInAs('support');
    let query: ContactQuery = fullQuery({ user: grace });
    const patches: unknown[] = [];
    server.use(
      http.get(api('/contact/q-1'), () => HttpResponse.json(query)),
      http.post(api('/contact/q-1/replies'), async ({ request }) => {
        const { message } = (await request.json()) as { message: string };
        query = {
          ...query,
          status: 'answered',
          reply_count: 1,
          replies: [{ id: 'r-1', author_role: 'support', author_name: testUser.name, message, created_at: '2026-11-21T09:00:00.000Z' }],
        };
        return HttpResponse.json(query);
      }),
      http.patch(api('/contact/q-1'), async ({ request }) => {
        const body = (await request.json()) as { status: ContactQuery['status'] };
        patches.push(body);
        query = { ...query, status: body.status };
        return HttpResponse.json(query);
      }),
      http.get(api('/contact/admin/all'), () => HttpResponse.json(pageOf([{ ...querySummary({ status: query.status }), user: grace }]))),
    );
    const { user } = renderApp({ route: '/support/q-1' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Import fails on a large CSV' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '<grace@example.com>' })).toHaveAttribute('href', 'mailto:grace@example.com');
    expect(screen.getByText('The user is emailed, and the query is marked answered.')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Your reply'), 'Split the file in two for now; a fix is on its way.');
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    const thread = screen.getByRole('list', { name: 'Conversation' });
    await waitFor(() => expect(within(thread).getAllByRole('listitem')).toHaveLength(2));
    expect(within(thread).getAllByRole('listitem')[1]).toHaveTextContent('Split the file in two for now');
    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveValue('answered'));

    await user.selectOptions(screen.getByLabelText('Status'), 'Closed');
    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveValue('closed'));
    expect(patches).toEqual([{ status: 'closed' }]);
    expect(screen.getAllByText('Closed').length).toBeGreaterThan(0);

    await user.click(screen.getByRole('link', { name: 'Support queue' }));
    await waitFor(() => expect(currentLocation()).toBe('/support'));
    expect(await screen.findByRole('table', { name: 'Support queue' })).toBeInTheDocument();
  });
});

describe('role gating', () => {
  it('shows a member neither Support nor Admin, and a direct visit says they have no access', async () => {
    signedInAs('user');
    let queueAsked = false;
    server.use(
      http.get(api('/contact/admin/all'), () => {
        queueAsked = true;
        return HttpResponse.json({ detail: 'Forbidden' }, { status: 403 });
      }),
    );
    const { user, unmount } = renderApp({ route: '/' });
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Contact' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Videos' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Beta programme' })).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Support' })).not.toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Admin' })).not.toBeInTheDocument();
    // Nor among the dashboard's areas.
    expect(screen.getByRole('link', { name: 'Open Contact' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open Support' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open Admin' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    // Nor in the phone drawer, whose second list holds the help areas.
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
    expect(within(drawer).queryByRole('link', { name: 'Support' })).not.toBeInTheDocument();
    expect(within(drawer).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    unmount();

    for (const route of ['/support', '/support/q-1', '/admin/invitation-codes', '/admin/videos']) {
      const view = renderApp({ route });
      expect(await screen.findByRole('heading', { name: 'You do not have access to this page' })).toBeInTheDocument();
      view.unmount();
    }
    expect(queueAsked).toBe(false);
  });

  it('shows support staff the Support area but not Admin; admins see both', async () => {
    signedInAs('support');
    const staff = renderApp({ route: '/' });
    await staff.user.click(await screen.findByRole('button', { name: 'Account menu' }));
    let menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Support' })).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Admin' })).not.toBeInTheDocument();
    staff.unmount();

    signedInAs('admin');
    const admin = renderApp({ route: '/' });
    await admin.user.click(await screen.findByRole('button', { name: 'Account menu' }));
    menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Support' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Admin' })).toBeInTheDocument();
  });
});
