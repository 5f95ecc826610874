import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';

describe('public gallery', () => {
  it('is browsable signed out, without a token, and offers to sign in to clone', async () => {
    let authorization: string | null = 'unset';
    let query = '';
    server.use(
      http.get(api('/workflows/public'), ({ request }) => {
        authorization = request.headers.get('authorization');
        query = new URL(request.url).search;
        return HttpResponse.json({
          items: [
            {
              id: 'w-1',
              name: 'Lead scoring',
              description: 'Scores leads with an AI prompt.',
              tags: ['crm', 'ai'],
              author_name: 'Grace Hopper',
              step_count: 4,
              clone_count: 12,
              published_at: '2026-11-20T10:00:00.000Z',
            },
          ],
          total: 1,
          page: 1,
          page_size: 24,
        });
      }),
    );
    const { user } = renderApp({ route: '/gallery' });
    const card = await screen.findByRole('listitem', { name: 'Lead scoring' });
    expect(within(card).getByText('Scores leads with an AI prompt.')).toBeInTheDocument();
    expect(within(card).getByText('by Grace Hopper')).toBeInTheDocument();
    expect(within(card).getByText('crm')).toBeInTheDocument();
    expect(within(card).getByText('4 steps')).toBeInTheDocument();
    expect(within(card).getByText('12 clones')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Sign in to clone' })).toHaveAttribute('href', '/login');
    expect(within(card).queryByRole('button', { name: /Clone/ })).not.toBeInTheDocument();
    expect(authorization).toBeNull();

    await user.type(screen.getByRole('searchbox', { name: 'Search the gallery' }), 'lead');
    await waitFor(() => expect(query).toContain('q=lead'));
    expect(await screen.findByRole('listitem', { name: 'Lead scoring' })).toBeInTheDocument();
  });

  it('clones into the signed-in account and opens the copy', async () => {
    localStorage.setItem('accessToken', 'good');
    server.use(
      http.get(api('/workflows/public'), ({ request }) => {
        expect(request.headers.get('authorization')).toBeNull();
        return HttpResponse.json({
          items: [
            {
              id: 'w-1',
              name: 'Lead scoring',
              description: '',
              tags: [],
              author_name: 'Grace',
              step_count: 1,
              clone_count: 0,
              published_at: '2026-11-20T10:00:00.000Z',
            },
          ],
          total: 1,
          page: 1,
          page_size: 24,
        });
      }),
      http.post(api('/workflows/w-1/clone'), () => HttpResponse.json({ id: 'w-copy', message: 'Workflow cloned.' }, { status: 201 })),
      http.get(api('/workflows/w-copy'), () => HttpResponse.json({ detail: 'Not found' }, { status: 404 })),
      http.get(api('/workflow-step-infos'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 200, ranking: 'catalogue' })),
    );
    const { user } = renderApp({ route: '/gallery' });
    await user.click(await screen.findByRole('button', { name: 'Clone Lead scoring' }));
    expect(await screen.findByText('Workflow cloned.')).toBeInTheDocument();
    expect(await screen.findByText('This workflow could not be found.')).toBeInTheDocument();
  });
});

describe('signing in from the gallery', () => {
  it('returns to the gallery after "Sign in to clone"', async () => {
    server.use(
      http.get(api('/workflows/public'), () =>
        HttpResponse.json({
          items: [
            {
              id: 'w-1',
              name: 'Lead scoring',
              description: '',
              tags: [],
              author_name: 'Grace Hopper',
              step_count: 4,
              clone_count: 12,
              published_at: '2026-11-20T10:00:00.000Z',
            },
          ],
          total: 1,
          page: 1,
          page_size: 24,
        }),
      ),
      http.post(api('/auth/login'), () => HttpResponse.json({ access_token: 'tok', token_type: 'bearer', expires_in: 3600 })),
    );
    const { user } = renderApp({ route: '/gallery' });
    const card = await screen.findByRole('listitem', { name: 'Lead scoring' });
    await user.click(within(card).getByRole('link', { name: 'Sign in to clone' }));
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(currentLocation()).toBe('/gallery'));
    expect(await screen.findByRole('button', { name: /Clone/ })).toBeInTheDocument();
  });

  it('returns to the gallery after the header\'s "Sign in"', async () => {
    server.use(
      http.get(api('/workflows/public'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 24 })),
      http.post(api('/auth/login'), () => HttpResponse.json({ access_token: 'tok', token_type: 'bearer', expires_in: 3600 })),
    );
    const { user } = renderApp({ route: '/gallery' });
    await user.click(await screen.findByRole('link', { name: 'Sign in' }));
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(currentLocation()).toBe('/gallery'));
  });
});
