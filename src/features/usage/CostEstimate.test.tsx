import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { api } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { info, workflowWith } from '../workflows/editor/editorFixtures';
import type { CostEstimate } from './usageApi';

// The editor's run controls say what a run would cost against the balance, before it starts.

const load: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Load leads', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };
const ask: StepOut = {
  id: 's-2',
  workflow_id: 'w-1',
  step_type: 'ai_chat',
  name: 'Score leads',
  param_inputs: {},
  inputs: ['s-1'],
  position: { x: 0, y: 140 },
};

const estimate = (overrides: Partial<CostEstimate> = {}): CostEstimate => ({
  credits: 12.5,
  balance: 40,
  enough: true,
  billing_enabled: true,
  lines: [
    { step_id: 's-1', step_name: 'Load leads', step_type: 'import_csv', per: 'run', records: 250, credits: 0.5 },
    { step_id: 's-2', step_name: 'Score leads', step_type: 'ai_chat', per: 'record', records: 250, credits: 12 },
  ],
  ...overrides,
});

function serve(answer: (query: URLSearchParams) => CostEstimate) {
  localStorage.setItem('accessToken', 'good');
  const asked: string[] = [];
  const billing = answer(new URLSearchParams()).billing_enabled;
  server.use(
    http.get(api('/balance/'), () => HttpResponse.json({ balance: 40, billing_enabled: billing, paused_runs: 0 })),
    http.get(api('/workflows/w-1'), () => HttpResponse.json(workflowWith([load, ask]))),
    http.get(api('/workflow-step-infos'), () =>
      HttpResponse.json({
        items: [
          info('import_csv', 'Import CSV', 'source', 0, 0),
          { ...info('ai_chat', 'Ask AI', 'enrich', 1, 1), cost: { per: 'record', credits: 0.05, note: '' } },
        ],
        total: 2,
        page: 1,
        page_size: 200,
        ranking: 'text',
      }),
    ),
    http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
    http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
    http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), () => HttpResponse.json({ items: [] })),
    http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 })),
    http.get(api('/workflows/w-1/cost-estimate'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(`${query.get('step_id')} ${query.get('mode')}`);
      return HttpResponse.json(answer(query));
    }),
  );
  return asked;
}

async function selectStep(name: string) {
  await screen.findAllByTestId('step-node');
  const node = screen.getAllByTestId('step-node').find((n) => n.getAttribute('aria-label') === name)!;
  fireEvent.click(within(node).getByText(name));
}

describe('cost estimate in the run controls', () => {
  it('shows the whole run’s estimate and the balance beside "Run workflow", and the step’s in the inspector', async () => {
    const asked = serve((query) => (query.get('mode') === 'all' ? estimate() : estimate({ credits: 0.5 })));
    renderApp({ route: '/workflows/w-1' });
    const toolbarEstimate = await screen.findByTestId('cost-estimate');
    expect(toolbarEstimate).toHaveTextContent('≈ 12.5 credits · 40 available');
    expect(toolbarEstimate).toHaveAttribute('title', 'Load leads: 0.5\nScore leads: 12');
    expect(asked).toContain('s-2 all');

    await selectStep('Load leads');
    const inspector = await screen.findByRole('complementary', { name: 'Step settings' });
    expect(await within(inspector).findByTestId('cost-estimate')).toHaveTextContent('Estimated cost: 0.5 credits · balance 40');
    expect(asked).toContain('s-1 up_to');
  });

  it('the catalogue shows each paying step’s price', async () => {
    serve(() => estimate());
    renderApp({ route: '/workflows/w-1' });
    const askAi = await screen.findByRole('button', { name: 'Add step Ask AI' });
    expect(await within(askAi).findByTestId('catalogue-cost')).toHaveTextContent('0.05 credits per record');
    expect(within(screen.getByRole('button', { name: 'Add step Import CSV' })).queryByTestId('catalogue-cost')).not.toBeInTheDocument();
  });

  it('warns when the balance is too low, with a way to top up', async () => {
    serve(() => estimate({ balance: 3, enough: false }));
    const { user } = renderApp({ route: '/workflows/w-1' });
    expect(await screen.findByTestId('cost-estimate')).toHaveTextContent('Not enough credits for this run.');
    // The toolbar's copy is for wide screens; the inspector's shows at every width.
    await selectStep('Score leads');
    const inspector = await screen.findByRole('complementary', { name: 'Step settings' });
    const warning = await within(inspector).findByTestId('cost-estimate');
    await user.click(within(warning).getByRole('link', { name: 'Top up' }));
    await waitFor(() => expect(currentLocation()).toBe('/billing'));
  });

  it('is hidden when the server does not bill (self-hosted)', async () => {
    serve(() => estimate({ billing_enabled: false }));
    renderApp({ route: '/workflows/w-1' });
    expect(await screen.findByRole('button', { name: 'Run workflow' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Run workflow' })).toBeEnabled());
    expect(screen.queryByTestId('cost-estimate')).not.toBeInTheDocument();
    expect(screen.queryByTestId('catalogue-cost')).not.toBeInTheDocument();
  });
});
