import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { accountIn, api } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { info, serveEditor, workflowWith } from '../workflows/editor/editorFixtures';
import type { CostEstimate } from './usageApi';
import '../../test/opensEditor';

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
  unknown: false,
  balance: 40,
  enough: true,
  billing_enabled: true,
  lines: [
    { step_id: 's-1', step_name: 'Load leads', step_type: 'import_csv', per: 'run', records: 250, credits: 0.5, unknown: false },
    { step_id: 's-2', step_name: 'Score leads', step_type: 'ai_chat', per: 'record', records: 250, credits: 12, unknown: false },
  ],
  ...overrides,
});

function serve(answer: (query: URLSearchParams) => CostEstimate) {
  const asked: string[] = [];
  const billing = answer(new URLSearchParams()).billing_enabled;
  serveEditor({
    workflow: workflowWith([load, ask]),
    infos: [
      info('import_csv', 'Import CSV', 'source', 0, 0),
      { ...info('ai_chat', 'Ask AI', 'enrich', 1, 1), cost: { per: 'record', credits: 0.05, note: '' } },
    ],
  });
  server.use(
    http.get(api('/balance/'), () => HttpResponse.json({ balance: 40, billing_enabled: billing, paused_runs: 0 })),
    http.get(api('/workflows/w-1/cost-estimate'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(`${query.get('step_id')} ${query.get('mode')}${query.has('sample_size') ? ` ${query.get('sample_size')}` : ''}`);
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

  it('shows the preview’s own cost beside "Preview on 100 records", not the full run’s', async () => {
    // 3,201 records counted at upload: the full run calls the AI 3,201 times, the preview 100 times.
    const asked = serve((query) =>
      query.get('sample_size') === '100'
        ? estimate({ credits: 5, lines: [estimate().lines[0], { ...estimate().lines[1], records: 100, credits: 5 }] })
        : estimate({ credits: 160.05, balance: 400 }),
    );
    renderApp({ route: '/workflows/w-1' });
    await selectStep('Score leads');
    const inspector = await screen.findByRole('complementary', { name: 'Step settings' });
    expect(within(inspector).getByRole('button', { name: 'Preview on 100 records' })).toBeInTheDocument();
    expect(await within(inspector).findByTestId('preview-cost-estimate')).toHaveTextContent('Preview on 100 records: ≈ 5 credits');
    expect(within(inspector).getByTestId('cost-estimate')).toHaveTextContent('Estimated cost: 160.05 credits · balance 400');
    expect(asked).toEqual(expect.arrayContaining(['s-2 up_to', 's-2 up_to 100']));
  });

  it('says the cost is unknown when records are only known by running, never "≈ 0 credits"', async () => {
    const unknownLine = { step_id: 's-2', step_name: 'Score leads', step_type: 'ai_chat', per: 'record' as const, records: null, credits: 0, unknown: true };
    serve(() => estimate({ credits: 0, unknown: true, lines: [{ ...estimate().lines[0], credits: 0 }, unknownLine] }));
    renderApp({ route: '/workflows/w-1' });
    const toolbarEstimate = await screen.findByTestId('cost-estimate');
    expect(toolbarEstimate).toHaveTextContent('Cost unknown until it runs · 40 available');
    expect(toolbarEstimate).not.toHaveTextContent('≈ 0');
    expect(toolbarEstimate).toHaveAttribute('title', 'Load leads: 0\nScore leads: unknown');

    await selectStep('Score leads');
    const inspector = await screen.findByRole('complementary', { name: 'Step settings' });
    expect(await within(inspector).findByTestId('cost-estimate')).toHaveTextContent(
      'Estimated cost: unknown until it runs (the records are only known then) · balance 40',
    );
    expect(within(inspector).getByTestId('preview-cost-estimate')).toHaveTextContent('Preview on 100 records: cost unknown until it runs');
  });

  it('says "at least" the known part when only some steps’ records are unknown, in Chinese too', async () => {
    const unknownLine = { step_id: 's-3', step_name: 'Call CRM', step_type: 'http_request', per: 'record' as const, records: null, credits: 0, unknown: true };
    serve(() => estimate({ unknown: true, lines: [...estimate().lines, unknownLine] }));
    server.use(accountIn('cn'));
    renderApp({ route: '/cn/workflows/w-1' });
    expect(await screen.findByTestId('cost-estimate')).toHaveTextContent('≥ 12.5 积分 + 未知 · 可用 40');
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
