import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ParamOut } from '../../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { api } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { info, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// Publishing sends the version on screen: a workflow changed meanwhile (another tab, an agent) is
// refused by the server with 409 rather than published unseen.

const workflow: WorkflowOut = workflowWith([], 7);

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

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 2.6 s here beside the other worker (2026-11-28).
  it('publishes only the version shown, once the dialog is confirmed', async () => {
    let sent: { published: string | null; ifMatch: string | null } | null = null;
    server.use(
      http.post(api('/workflows/w-1/publish'), ({ request }) => {
        sent = { published: new URL(request.url).searchParams.get('published'), ifMatch: request.headers.get('if-match') };
        return HttpResponse.json({ ...workflow, visibility: 'published', published_version: 7, message: 'Workflow published.' });
      }),
    );
    const { user } = renderApp({ route: '/workflows/w-1' });
    await user.click(await screen.findByRole('checkbox', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish to the gallery' });
    expect(sent).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(sent).toEqual({ published: 'true', ifMatch: '"7"' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  }, 15_000);

  it('shows the server’s refusal when the workflow changed meanwhile', async () => {
    server.use(http.post(api('/workflows/w-1/publish'), () => HttpResponse.json({ detail: 'This workflow changed since you loaded it.' }, { status: 409 })));
    const { user } = renderApp({ route: '/workflows/w-1' });
    await user.click(await screen.findByRole('checkbox', { name: 'Publish' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Publish' }));
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

describe('publishing: what becomes public, and an outdated gallery copy', () => {
  const param = (name: string, type: ParamOut['type'], label: string): ParamOut => ({ name, type, label, help: '', required: false });
  const catalogue = [
    { ...info('import_csv', 'Import CSV', 'source', 0, 0), params: [param('file', 'file', 'CSV file'), param('delimiter', 'enum', 'Delimiter')] },
    { ...info('http_request', 'HTTP request', 'enrich', 1, 1), params: [param('url', 'template', 'URL'), param('auth_secret', 'secret', 'Access token')] },
  ];
  const steps: StepOut[] = [
    {
      id: 's-1',
      workflow_id: 'w-1',
      step_type: 'import_csv',
      name: 'Load leads',
      param_inputs: { file: 'f-123', delimiter: 'comma' },
      inputs: [],
      position: { x: 0, y: 0 },
    },
    {
      id: 's-2',
      workflow_id: 'w-1',
      step_type: 'http_request',
      name: 'Ask the CRM',
      param_inputs: { url: 'https://crm.example.com', auth_secret: 'sk-live' },
      inputs: ['s-1'],
      position: { x: 0, y: 140 },
    },
  ];
  const leads: WorkflowOut = {
    ...workflowWith(steps, 9),
    name: 'Lead enrichment',
    description: 'Scores new leads.',
    tags: ['crm', 'sales'],
    variables: [{ id: 'v-1', workflow_id: 'w-1', name: 'api_key', type: 'secret', description: '', value: null, has_value: true }],
  };

  function serve(current: WorkflowOut, onPublish: (query: URLSearchParams, ifMatch: string | null) => WorkflowOut) {
    localStorage.setItem('accessToken', 'good');
    let shown = current;
    server.use(
      http.get(api('/workflows/w-1'), () => HttpResponse.json(shown)),
      http.get(api('/workflow-step-infos'), () =>
        HttpResponse.json({ items: catalogue, total: catalogue.length, page: 1, page_size: 200, ranking: 'catalogue' }),
      ),
      http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
      http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
      http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 })),
      http.post(api('/workflows/w-1/publish'), ({ request }) => {
        shown = onPublish(new URL(request.url).searchParams, request.headers.get('if-match'));
        return HttpResponse.json({ ...shown, message: 'Published to the gallery.' });
      }),
    );
  }

  it('lists what will be public and what is left empty for people who clone it; Cancel publishes nothing', async () => {
    const calls: string[] = [];
    serve(leads, (query) => {
      calls.push(query.get('published')!);
      return { ...leads, visibility: 'published', published_version: 9, published_at: '2026-11-21T10:00:00.000Z' };
    });
    const { user } = renderApp({ route: '/workflows/w-1' });
    await user.click(await screen.findByRole('checkbox', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish to the gallery' });
    const shown = within(dialog).getByLabelText('What will be public');
    expect(within(shown).getByText('Lead enrichment')).toBeInTheDocument();
    expect(within(shown).getByText('Scores new leads.')).toBeInTheDocument();
    expect(within(shown).getByText('crm')).toBeInTheDocument();
    expect(within(shown).getByText('sales')).toBeInTheDocument();
    expect(within(shown).getByText('2 steps')).toBeInTheDocument();
    expect(within(dialog).getByText(/Secret values and your files and datasets are never shared/)).toBeInTheDocument();
    const leftEmpty = within(dialog).getByRole('list', { name: 'Left empty for people who clone it:' });
    expect(
      within(leftEmpty)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Load leads: CSV file', 'Ask the CRM: Access token', 'Variable api_key']);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([]);
    expect(screen.getByRole('checkbox', { name: 'Publish' })).not.toBeChecked();

    await user.click(screen.getByRole('checkbox', { name: 'Publish' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(calls).toEqual(['true']));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Publish' })).toBeChecked());
    expect(screen.queryByText('Gallery shows an older version')).not.toBeInTheDocument();
  });

  it('says when the gallery shows an older version, updates the copy to this one, and can still unpublish', async () => {
    const sent: { published: string | null; ifMatch: string | null }[] = [];
    const published: WorkflowOut = { ...leads, visibility: 'published', published_version: 7, published_at: '2026-11-20T10:00:00.000Z' };
    serve(published, (query, ifMatch) => {
      sent.push({ published: query.get('published'), ifMatch });
      return query.get('published') === 'true'
        ? { ...published, published_version: 9 }
        : { ...published, visibility: 'private', published_version: null, published_at: null };
    });
    const { user } = renderApp({ route: '/workflows/w-1' });
    const notice = await screen.findByTestId('gallery-outdated');
    expect(notice).toHaveTextContent('Gallery shows an older version');
    expect(notice).toHaveAttribute('title', 'The gallery shows version 7; you are on version 9.');

    await user.click(screen.getByRole('button', { name: 'Update the gallery copy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update the gallery copy' });
    expect(within(dialog).getByText(/The gallery shows version 7; you are on version 9\. Updating replaces/)).toBeInTheDocument();
    expect(within(dialog).getByText('Lead enrichment')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(sent).toEqual([{ published: 'true', ifMatch: '"9"' }]));
    await waitFor(() => expect(screen.queryByTestId('gallery-outdated')).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Update the gallery copy' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View in the gallery' })).toHaveAttribute('href', '/gallery/w-1');

    // Turning the switch off unpublishes at once: nothing to review.
    await user.click(screen.getByRole('checkbox', { name: 'Publish' }));
    await waitFor(() => expect(sent[1]).toEqual({ published: 'false', ifMatch: '"9"' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Publish' })).not.toBeChecked());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps a long name, the badges and the credit chip apart once a published workflow has unpublished edits', async () => {
    const long = 'Quarterly revenue reconciliation for every region and every product line';
    serve({ ...leads, name: long, visibility: 'published', published_version: 7, published_at: '2026-11-20T10:00:00.000Z' }, () => leads);
    server.use(
      http.get(api('/workflows/w-1/cost-estimate'), () =>
        HttpResponse.json({ credits: 12.5, unknown: false, balance: 40, enough: true, billing_enabled: true, lines: [] }),
      ),
    );
    renderApp({ route: '/workflows/w-1' });
    const title = await screen.findByTestId('editor-title');
    const controls = screen.getByTestId('editor-controls');

    // The name: whole in its title attribute and its heading, cut on screen with an ellipsis.
    const rename = within(title).getByRole('button', { name: `Rename ${long}` });
    expect(rename).toHaveAttribute('title', long);
    expect(within(rename).getByRole('heading', { level: 1 })).toHaveTextContent(long);

    // The badges sit with the name (they wrap below it), never among the controls and their credit chip.
    const badges = within(title).getByTestId('editor-badges');
    expect(within(badges).getByTestId('gallery-outdated')).toHaveTextContent('Gallery shows an older version');
    expect(within(badges).getByText('Published')).toBeInTheDocument();
    expect(within(badges).getByText('v9')).toBeInTheDocument();
    const chip = await within(controls).findByTestId('cost-estimate');
    expect(chip).toHaveTextContent('≈ 12.5 credits · 40 available');
    expect(title).not.toContainElement(chip);
    expect(controls).not.toContainElement(badges);
    expect(within(controls).getByRole('button', { name: 'Update the gallery copy' })).toBeInTheDocument();

    // Both rows may wrap; the name keeps room for its first characters (10rem) before the badges wrap.
    expect(getComputedStyle(screen.getByTestId('editor-header')).flexWrap).toBe('wrap');
    expect(getComputedStyle(badges).flexWrap).toBe('wrap');
    expect(getComputedStyle(rename).flexBasis).toBe('10rem');
    expect(getComputedStyle(rename).maxWidth).toBe('max-content');
  });
});
