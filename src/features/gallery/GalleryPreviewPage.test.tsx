import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { PublicWorkflowDetail } from '../workflows/workflowsApi';
import { api } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';

// A gallery card opens a preview of the published workflow that anyone can link to: its graph
// (read-only) and each step's settings, with the author's secrets and files withheld.

const card = {
  id: 'w-1',
  name: 'Lead scoring',
  description: 'Scores leads with an AI prompt.',
  tags: ['crm'],
  author_name: 'Grace Hopper',
  step_count: 2,
  clone_count: 12,
  published_at: '2026-11-20T10:00:00.000Z',
};

const detail: PublicWorkflowDetail = {
  ...card,
  steps: [
    {
      id: '1',
      name: 'Load leads',
      step_type: 'import_csv',
      type_name: 'Import CSV',
      category: 'source',
      position: { x: 0, y: 0 },
      inputs: [],
      params: [
        { name: 'file', label: 'CSV file', type: 'file', value: null, withheld: true },
        { name: 'has_header', label: 'First row is the header', type: 'boolean', value: true, withheld: false },
      ],
    },
    {
      id: '2',
      name: 'Ask the CRM',
      step_type: 'http_request',
      type_name: 'HTTP request',
      category: 'enrich',
      position: { x: 0, y: 160 },
      inputs: ['1'],
      params: [{ name: 'url', label: 'URL', type: 'template', value: 'https://crm.example.com/{{field.id}}', withheld: false }],
    },
  ],
  variables: [{ name: 'crm_token', type: 'secret', description: '' }],
};

/** The gallery's two public calls; `seen` records whether any carried a token. */
function serveGallery() {
  const seen: (string | null)[] = [];
  server.use(
    http.get(api('/workflows/public'), ({ request }) => {
      seen.push(request.headers.get('authorization'));
      return HttpResponse.json({ items: [card], total: 1, page: 1, page_size: 24 });
    }),
    http.get(api('/workflows/public/w-1'), ({ request }) => {
      seen.push(request.headers.get('authorization'));
      return HttpResponse.json(detail);
    }),
  );
  return seen;
}

describe('gallery preview', () => {
  it('opens from a card and shows the read-only graph and every step with its settings', async () => {
    const seen = serveGallery();
    const { user } = renderApp({ route: '/gallery' });
    const item = await screen.findByRole('listitem', { name: 'Lead scoring' });
    await user.click(within(item).getByRole('link', { name: 'Preview Lead scoring' }));
    await waitFor(() => expect(currentLocation()).toBe('/gallery/w-1'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Lead scoring' })).toBeInTheDocument();
    expect(screen.getByText('by Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('Scores leads with an AI prompt.')).toBeInTheDocument();

    // The graph, without any editing tools.
    const graph = screen.getByRole('region', { name: 'Workflow graph (read-only)' });
    await waitFor(() => expect(within(graph).getAllByTestId('step-node')).toHaveLength(2));
    expect(within(graph).queryByRole('button', { name: 'Tidy up' })).not.toBeInTheDocument();
    expect(graph.querySelectorAll('.react-flow__node.draggable')).toHaveLength(0);
    expect(graph.querySelectorAll('.react-flow__handle.connectable')).toHaveLength(0);

    const steps = screen.getByRole('list', { name: 'Steps' });
    const load = within(steps).getByRole('listitem', { name: 'Load leads' });
    expect(within(load).getByText('Import CSV')).toBeInTheDocument();
    expect(within(load).getByText('CSV file')).toBeInTheDocument();
    expect(within(load).getByText('Not shared: set your own after cloning')).toBeInTheDocument();
    expect(within(load).getByText('Yes')).toBeInTheDocument();
    const ask = within(steps).getByRole('listitem', { name: 'Ask the CRM' });
    expect(within(ask).getByText('Reads from Load leads')).toBeInTheDocument();
    expect(within(ask).getByText('https://crm.example.com/{{field.id}}')).toBeInTheDocument();
    // Nothing to type into: the settings are read-only.
    expect(within(steps).queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByText('crm_token')).toBeInTheDocument();

    expect(screen.getByRole('link', { name: 'Sign in to clone' })).toBeInTheDocument();
    expect(seen).toEqual([null, null]);
  });

  it('comes back to the preview after "Sign in to clone", now offering to clone', async () => {
    serveGallery();
    server.use(http.post(api('/auth/login'), () => HttpResponse.json({ access_token: 'tok', token_type: 'bearer', expires_in: 3600 })));
    const { user } = renderApp({ route: '/gallery/w-1' });
    await user.click(await screen.findByRole('link', { name: 'Sign in to clone' }));
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(currentLocation()).toBe('/gallery/w-1'));
    expect(await screen.findByRole('button', { name: 'Clone Lead scoring' })).toBeInTheDocument();
  });

  it('clones from the preview into the signed-in account', async () => {
    localStorage.setItem('accessToken', 'good');
    serveGallery();
    server.use(
      http.post(api('/workflows/w-1/clone'), () => HttpResponse.json({ id: 'w-copy', message: 'Workflow copied to your account.' }, { status: 201 })),
      http.get(api('/workflows/w-copy'), () => HttpResponse.json({ detail: 'Not found' }, { status: 404 })),
      http.get(api('/workflow-step-infos'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 200, ranking: 'catalogue' })),
    );
    const { user } = renderApp({ route: '/gallery/w-1' });
    await user.click(await screen.findByRole('button', { name: 'Clone Lead scoring' }));
    expect(await screen.findByText('Workflow copied to your account.')).toBeInTheDocument();
    await waitFor(() => expect(currentLocation()).toBe('/workflows/w-copy'));
  });

  it('says so when the workflow is not (or no longer) in the gallery', async () => {
    server.use(http.get(api('/workflows/public/w-gone'), () => HttpResponse.json({ detail: 'Workflow not found.' }, { status: 404 })));
    renderApp({ route: '/cn/gallery/w-gone' });
    expect(await screen.findByRole('heading', { name: '作品库中没有这个工作流' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '返回作品库' })).toHaveAttribute('href', '/cn/gallery');
  });
});
