import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { api } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';

// Publishing sends the version on screen: a workflow changed meanwhile (another tab, an agent) is
// refused by the server with 409 rather than published unseen.

const workflow: WorkflowOut = {
  id: 'w-1',
  name: 'Sales report',
  description: '',
  tags: [],
  visibility: 'private',
  version: 7,
  step_count: 0,
  clone_count: 0,
  cloned_from_id: null,
  published_at: null,
  published_version: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  owner_id: 'u-1',
  steps: [],
  variables: [],
  can_undo: false,
  can_redo: false,
};

describe('the editor toolbar', () => {
  beforeEach(() => {
    localStorage.setItem('accessToken', 'good');
    server.use(
      http.get(api('/workflows/w-1'), () => HttpResponse.json(workflow)),
      http.get(api('/workflow-step-infos'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 200, ranking: 'text' })),
      http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
      http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
      http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 })),
    );
  });

  it('publishes only the version shown', async () => {
    let sent: { published: string | null; ifMatch: string | null } | null = null;
    server.use(
      http.post(api('/workflows/w-1/publish'), ({ request }) => {
        sent = { published: new URL(request.url).searchParams.get('published'), ifMatch: request.headers.get('if-match') };
        return HttpResponse.json({ ...workflow, visibility: 'published', version: 8, message: 'Workflow published.' });
      }),
    );
    const { user } = renderApp({ route: '/workflows/w-1' });
    await user.click(await screen.findByRole('checkbox', { name: 'Publish' }));
    await waitFor(() => expect(sent).toEqual({ published: 'true', ifMatch: '"7"' }));
  });

  it('shows the server’s refusal when the workflow changed meanwhile', async () => {
    server.use(http.post(api('/workflows/w-1/publish'), () => HttpResponse.json({ detail: 'This workflow changed since you loaded it.' }, { status: 409 })));
    const { user } = renderApp({ route: '/workflows/w-1' });
    await user.click(await screen.findByRole('checkbox', { name: 'Publish' }));
    expect(await screen.findByText('This workflow changed since you loaded it.')).toBeInTheDocument();
  });

  it('shows a long name whole in a tooltip and says the 200-character limit while typing', async () => {
    const long = 'Quarterly revenue reconciliation '.repeat(16).trim(); // 527 characters
    expect(long.length).toBe(527);
    server.use(http.get(api('/workflows/w-1'), () => HttpResponse.json({ ...workflow, name: long.slice(0, 200), visibility: 'published' })));
    const { user } = renderApp({ route: '/workflows/w-1' });
    const rename = await screen.findByRole('button', { name: `Rename ${long.slice(0, 200)}` });
    // Truncated on screen, whole on hover; the button may shrink so the badges keep their place.
    expect(rename).toHaveAttribute('title', long.slice(0, 200));

    await user.click(rename);
    const input = screen.getByRole('textbox', { name: 'Workflow name' });
    await user.clear(input);
    await user.type(input, 'Sales');
    expect(input).toHaveAccessibleDescription('5/200');
    await user.clear(input);
    await user.click(input);
    await user.paste(long);
    expect(input).toHaveValue(long.slice(0, 200));
    expect(input).toHaveAccessibleDescription('A name can have at most 200 characters.');
  });
});
