import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { WorkflowSummaryOut } from '../../../server/src/modules/workflows/workflows.schemas';
import { api } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';

const summary = (id: string, name: string, extra: Partial<WorkflowSummaryOut> = {}): WorkflowSummaryOut => ({
  id,
  name,
  description: `${name} description`,
  tags: ['sales'],
  visibility: 'private',
  version: 3,
  step_count: 2,
  clone_count: 0,
  cloned_from_id: null,
  published_at: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  ...extra,
});

describe('workflows list', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'good'));

  it('invites creating the first workflow when there is none', async () => {
    server.use(http.get(api('/workflows'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 24 })));
    renderApp({ route: '/workflows' });
    expect(await screen.findByText('Build your first workflow')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create a workflow' })).toBeInTheDocument();
  });

  it('searches (debounced) and sorts through the query', async () => {
    const seen: string[] = [];
    server.use(
      http.get(api('/workflows'), ({ request }) => {
        const url = new URL(request.url);
        seen.push(url.search);
        const q = url.searchParams.get('q');
        const items = [summary('w-1', 'Weekly sales'), summary('w-2', 'Churn report')].filter((w) => !q || w.name.toLowerCase().includes(q));
        return HttpResponse.json({ items, total: items.length, page: 1, page_size: 24 });
      }),
    );
    const { user } = renderApp({ route: '/workflows' });
    expect(await screen.findByRole('link', { name: 'Churn report' })).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search workflows' }), 'weekly');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Churn report' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Weekly sales' })).toHaveAttribute('href', '/workflows/w-1');
    // One request for the whole word, not one per keystroke.
    expect(seen.filter((s) => s.includes('q=')).length).toBe(1);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'name');
    await waitFor(() => expect(seen.at(-1)).toContain('sort=name'));
    expect(seen.at(-1)).toContain('order=asc');
  });

  it('deletes only after the confirm dialog, and only the version shown', async () => {
    let items = [summary('w-1', 'Weekly sales')];
    let deleted: string | null = null;
    let ifMatch: string | null = null;
    server.use(
      http.get(api('/workflows'), () => HttpResponse.json({ items, total: items.length, page: 1, page_size: 24 })),
      http.delete(api('/workflows/:id'), ({ params, request }) => {
        deleted = params.id as string;
        ifMatch = request.headers.get('if-match');
        items = [];
        return HttpResponse.json({ message: 'Workflow deleted.' });
      }),
    );
    const { user } = renderApp({ route: '/workflows' });
    await user.click(await screen.findByRole('button', { name: 'Delete Weekly sales' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/“Weekly sales” and its whole history will be deleted/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(deleted).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Delete Weekly sales' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Workflow deleted.')).toBeInTheDocument();
    expect(deleted).toBe('w-1');
    expect(ifMatch).toBe('"3"');
    expect(await screen.findByText('Build your first workflow')).toBeInTheDocument();
  });

  it('creates a workflow from the dialog and opens it in the editor', async () => {
    let body: unknown = null;
    server.use(
      http.get(api('/workflows'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 24 })),
      http.post(api('/workflows'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          { ...summary('w-9', 'Leads'), owner_id: 'u-1', steps: [], variables: [], can_undo: false, can_redo: false, message: 'Workflow created.' },
          { status: 201 },
        );
      }),
      http.get(api('/workflows/w-9'), () =>
        HttpResponse.json({ ...summary('w-9', 'Leads'), owner_id: 'u-1', steps: [], variables: [], can_undo: false, can_redo: false }),
      ),
      http.get(api('/workflow-step-infos'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 200, ranking: 'catalogue' })),
    );
    const { user } = renderApp({ route: '/workflows' });
    await user.click(await screen.findByRole('button', { name: 'New workflow' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Create and open' }));
    expect(within(dialog).getByText('Give your workflow a name.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Name/), 'Leads');
    await user.type(within(dialog).getByLabelText('Tags'), 'crm, weekly, crm');
    await user.click(within(dialog).getByRole('button', { name: 'Create and open' }));
    await waitFor(() => expect(currentLocation()).toBe('/workflows/w-9'));
    expect(body).toEqual({ name: 'Leads', description: '', tags: ['crm', 'weekly'] });
  });

  it('says the 200-character limit while the name is typed, instead of cutting a long paste silently', async () => {
    server.use(http.get(api('/workflows'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 24 })));
    const { user } = renderApp({ route: '/workflows' });
    await user.click(await screen.findByRole('button', { name: 'New workflow' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText(/Name/);
    await user.type(name, 'Leads');
    expect(within(dialog).getByText('5/200')).toBeInTheDocument();
    await user.click(name);
    await user.paste('x'.repeat(527));
    expect(name).toHaveValue('Leads' + 'x'.repeat(195));
    expect(within(dialog).getByText('A name can have at most 200 characters.')).toBeInTheDocument();
  });
});

describe('starting a workflow from a file', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'good'));

  it('creates a workflow whose first step imports the chosen CSV, and opens it', async () => {
    const bodies: Record<string, unknown> = {};
    server.use(
      http.get(api('/workflows'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 24 })),
      http.post(api('/workflows'), async ({ request }) => {
        bodies.workflow = await request.json();
        return HttpResponse.json(
          { ...summary('w-7', 'Import leads.csv'), owner_id: 'u-1', steps: [], variables: [], can_undo: false, can_redo: false },
          { status: 201 },
        );
      }),
      http.post(api('/workflow-steps'), async ({ request }) => {
        bodies.step = await request.json();
        return HttpResponse.json(
          {
            id: 's-1',
            workflow_id: 'w-7',
            step_type: 'import_csv',
            name: 'Import CSV',
            param_inputs: { file: 'f-1' },
            inputs: [],
            position: { x: 0, y: 0 },
            workflow_version: 2,
          },
          { status: 201 },
        );
      }),
      http.get(api('/workflows/w-7'), () =>
        HttpResponse.json({ ...summary('w-7', 'Import leads.csv'), owner_id: 'u-1', steps: [], variables: [], can_undo: true, can_redo: false }),
      ),
      http.get(api('/workflow-step-infos'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 200, ranking: 'catalogue' })),
    );
    const { user } = renderApp({ route: '/workflows?file_id=f-1&file_name=leads.csv' });
    expect(await screen.findByText('Start a workflow from leads.csv')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New workflow from this file' }));
    await waitFor(() => expect(currentLocation()).toBe('/workflows/w-7'));
    expect(bodies).toEqual({
      workflow: { name: 'Import leads.csv' },
      step: { workflow_id: 'w-7', step_type: 'import_csv', param_inputs: { file: 'f-1' } },
    });
  });

  it('says plainly when no step can read the file', async () => {
    server.use(http.get(api('/workflows'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 24 })));
    renderApp({ route: '/workflows?file_id=f-2&file_name=photo.png' });
    expect(
      await screen.findByText('Steps read CSV, TSV, JSON, JSON lines, Excel (.xlsx) and Parquet files; this file cannot be read by a step.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New workflow from this file' })).not.toBeInTheDocument();
  });
});
