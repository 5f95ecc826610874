import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { api } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { overlaps } from './layout';
import { info, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// "Add after the selected step" in the middle of a chain: the new step goes between the selected
// step and the next one (the server rewires), and is placed where no other step is.

const importCsv = info('import_csv', 'Import CSV', 'source', 0, 0);
const filter = info('filter', 'Filter rows', 'transform', 1, 1);
const dedupe = info('deduplicate', 'Remove duplicates', 'transform', 1, 1);

const load: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Load sales', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };
const keep: StepOut = { id: 's-2', workflow_id: 'w-1', step_type: 'filter', name: 'Big ones', param_inputs: {}, inputs: ['s-1'], position: { x: 0, y: 140 } };

describe('adding a step after one in the middle of a chain', () => {
  let current: WorkflowOut;
  let asked: URLSearchParams | null;

  beforeEach(() => {
    localStorage.setItem('accessToken', 'good');
    current = workflowWith([load, keep]);
    asked = null;
    server.use(
      http.get(api('/workflows/w-1'), () => HttpResponse.json(current)),
      http.get(api('/workflow-step-infos'), () =>
        HttpResponse.json({ items: [importCsv, filter, dedupe], total: 3, page: 1, page_size: 200, ranking: 'text' }),
      ),
      http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
      http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
      http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 })),
      http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), () => HttpResponse.json({ variables: [], fields: [], notes: [], preview_step_ids: [] })),
      http.post(api('/workflow-steps/from-template'), ({ request }) => {
        asked = new URL(request.url).searchParams;
        const position = { x: Number(asked.get('x')), y: Number(asked.get('y')) };
        const added: StepOut = {
          id: 's-3',
          workflow_id: 'w-1',
          step_type: 'deduplicate',
          name: 'Remove duplicates',
          param_inputs: {},
          inputs: ['s-1'],
          position,
        };
        current = workflowWith([load, { ...keep, inputs: ['s-3'] }, added], 2);
        return HttpResponse.json({ ...added, workflow_version: 2 }, { status: 201 });
      }),
    );
  });

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 3.8 s here beside the other worker (2026-11-28).
  it('asks for it after the selected step, on a spot no other step covers', async () => {
    const { user } = renderApp({ route: '/workflows/w-1' });
    const nodes = await screen.findAllByTestId('step-node');
    fireEvent.click(within(nodes.find((n) => n.getAttribute('aria-label') === 'Load sales')!).getByText('Load sales'));
    await screen.findByRole('complementary', { name: 'Step settings' });

    await user.click(await screen.findByRole('button', { name: /Remove duplicates/ }));
    await waitFor(() => expect(asked).not.toBeNull());
    expect(asked!.get('after_step_id')).toBe('s-1');
    const at = { x: Number(asked!.get('x')), y: Number(asked!.get('y')) };
    expect(asked!.has('x') && asked!.has('y')).toBe(true);
    for (const s of [load, keep]) expect(overlaps(s.position, at)).toBe(false);
    await waitFor(() => expect(screen.getAllByTestId('step-node')).toHaveLength(3));
  }, 15_000);
});
