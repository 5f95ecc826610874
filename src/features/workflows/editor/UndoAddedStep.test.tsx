import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepInfoOut } from '../../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { api } from '../../../test/handlers';
import { requestsSettled } from '../../../test/requests';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// A step was just added and is selected (its settings open). Undo removes it: the editor must let
// go of it quietly, not refetch what the gone step may reference and show "Step not found".

const importCsv: StepInfoOut = {
  id: 'import_csv',
  name: 'Import CSV',
  description: 'Load a CSV file from your files.',
  category: 'source',
  tags: ['import', 'csv'],
  params: [{ name: 'delimiter', type: 'enum', label: 'Delimiter', help: 'Between values.', required: false, default: 'auto', options: ['auto', 'comma'] }],
  inputs: { min: 0, max: 0 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: '' },
  customized: false,
};
const added: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Import CSV', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };

/** Workflow w-1 with these steps, one undo away from its previous state (or one redo from its next). */
const workflowAt = (steps: StepOut[], version: number, canUndo: boolean): WorkflowOut => ({
  ...workflowWith(steps, version),
  can_undo: canUndo,
  can_redo: !canUndo,
});

describe('undoing a step that was just added while it is selected', () => {
  let current: WorkflowOut;
  let fieldCalls: string[];

  beforeEach(() => {
    localStorage.setItem('accessToken', 'good');
    current = workflowAt([added], 2, true);
    fieldCalls = [];
    server.use(
      http.get(api('/workflows/w-1'), () => HttpResponse.json(current)),
      http.get(api('/workflow-step-infos'), () => HttpResponse.json({ items: [importCsv], total: 1, page: 1, page_size: 200, ranking: 'text' })),
      http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
      http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
      http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 })),
      http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), ({ params }) => {
        fieldCalls.push(String(params.stepId));
        return current.steps.some((s) => s.id === params.stepId)
          ? HttpResponse.json({ variables: [], fields: [], notes: [], preview_step_ids: [] })
          : HttpResponse.json({ detail: 'Step not found.' }, { status: 404 });
      }),
      http.post(api('/workflow-history/undo'), () => {
        current = workflowAt([], 3, false);
        return HttpResponse.json({ ...current, message: 'Undid: Added step Import CSV' });
      }),
    );
  });

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 3.2 s here beside the other worker (2026-11-28).
  it('deselects the gone step without an error notice', async () => {
    const { user, store } = renderApp({ route: '/workflows/w-1' });
    const node = await screen.findByTestId('step-node');
    // A click, not user.click: React Flow's drag handler needs a window on the mouse-down event.
    fireEvent.click(node.querySelector('p')!);
    expect(await screen.findByRole('complementary', { name: 'Step settings' })).toBeInTheDocument();
    await waitFor(() => expect(fieldCalls).toEqual(['s-1']));

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Undid: Added step Import CSV')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('step-node')).not.toBeInTheDocument());
    expect(screen.queryByRole('complementary', { name: 'Step settings' })).not.toBeInTheDocument();
    // Every refetch the undo set off has landed.
    await requestsSettled(store);
    expect(screen.queryByText('Step not found.')).not.toBeInTheDocument();
    expect(fieldCalls).toEqual(['s-1']);
  }, 15_000);
});
