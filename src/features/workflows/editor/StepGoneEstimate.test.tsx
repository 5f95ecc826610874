import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { api } from '../../../test/handlers';
import { requestsSettled } from '../../../test/requests';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { firstCommit, serveEditor, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// The cost estimates beside the run controls follow the workflow. A step that leaves it (deleted,
// undone, restored away, redone away) must not be estimated again: the server would answer 404
// "Step not found." and a red notice would follow every such action.

const load: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Load sales', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };
const keep: StepOut = { id: 's-2', workflow_id: 'w-1', step_type: 'filter', name: 'Big ones', param_inputs: {}, inputs: ['s-1'], position: { x: 0, y: 140 } };

describe('the cost estimate of a step that is gone', () => {
  let current: WorkflowOut;
  /** Each estimate asked: its step, and whether the workflow had it when asked. */
  let asked: { step: string; known: boolean }[];

  beforeEach(() => {
    current = { ...workflowWith([load, keep], 2), can_undo: true };
    asked = [];
    const withOnly = (steps: StepOut[], version: number, changes: Partial<WorkflowOut> = {}) => {
      current = { ...workflowWith(steps, version), ...changes };
      return HttpResponse.json({ ...current, message: 'Done.' });
    };
    serveEditor({ workflow: () => current, commits: [firstCommit('Added Load sales')] });
    server.use(
      // As the server answers: a step the workflow no longer has is not found.
      http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), ({ params }) =>
        current.steps.some((s) => s.id === params.stepId)
          ? HttpResponse.json({ variables: [], fields: [], notes: [], preview_step_ids: [] })
          : HttpResponse.json({ detail: 'Step not found.' }, { status: 404 }),
      ),
      http.get(api('/workflows/w-1/cost-estimate'), ({ request }) => {
        const step = new URL(request.url).searchParams.get('step_id') ?? '';
        const known = current.steps.some((s) => s.id === step);
        asked.push({ step, known });
        return known
          ? HttpResponse.json({ credits: 1, unknown: false, balance: 10, enough: true, billing_enabled: true, lines: [] })
          : HttpResponse.json({ detail: 'Step not found.' }, { status: 404 });
      }),
      http.delete(api('/workflows/w-1/steps/batch'), () => {
        current = { ...workflowWith([load], current.version + 1), can_undo: true };
        return HttpResponse.json({ deleted: ['s-2'], rewired: [], workflow_version: current.version });
      }),
      http.post(api('/workflow-history/undo'), () => withOnly([load], current.version + 1, { can_redo: true })),
      http.post(api('/workflow-history/redo'), () => withOnly([load], current.version + 1, { can_undo: true })),
      http.post(api('/workflow-history/restore/c-1'), () => withOnly([load], current.version + 1, { can_undo: true })),
    );
  });

  const nodeNamed = (name: string) => screen.getAllByTestId('step-node').find((n) => n.getAttribute('aria-label') === name)!;
  /** Opens "Big ones" (the last step: the toolbar's estimate is about it too) and waits for both estimates. */
  async function openBigOnes() {
    await screen.findAllByTestId('step-node');
    fireEvent.click(within(nodeNamed('Big ones')).getByText('Big ones'));
    const inspector = await screen.findByRole('complementary', { name: 'Step settings' });
    await within(inspector).findByTestId('cost-estimate');
    await waitFor(() => expect(asked.filter((a) => a.step === 's-2').length).toBeGreaterThanOrEqual(2));
  }

  /** Once everything the action set off has landed: no notice, nothing asked about the gone step. */
  async function expectQuietAfter(store: Parameters<typeof requestsSettled>[0]) {
    await waitFor(() => expect(screen.getAllByTestId('step-node')).toHaveLength(1));
    await requestsSettled(store);
    expect(screen.queryByText('Step not found.')).not.toBeInTheDocument();
    expect(asked.filter((a) => !a.known)).toEqual([]);
    expect(screen.queryByRole('complementary', { name: 'Step settings' })).not.toBeInTheDocument();
    // The toolbar's estimate moved on to the step that is left.
    await waitFor(() => expect(asked.at(-1)).toEqual({ step: 's-1', known: true }));
  }

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 3.5 s here beside the other worker (2026-11-28).
  it('is not asked again after the step is deleted', async () => {
    const { user, store } = renderApp({ route: '/workflows/w-1' });
    await openBigOnes();
    await user.click(screen.getByRole('button', { name: 'Delete step' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete step' }));
    await expectQuietAfter(store);
  }, 15_000);

  it('is not asked again after an undo removes the step', async () => {
    const { user, store } = renderApp({ route: '/workflows/w-1' });
    await openBigOnes();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await expectQuietAfter(store);
  });

  it('is not asked again after a redo removes the step', async () => {
    current = { ...current, can_redo: true };
    const { user, store } = renderApp({ route: '/workflows/w-1' });
    await openBigOnes();
    await user.click(screen.getByRole('button', { name: 'Redo' }));
    await expectQuietAfter(store);
  });

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 2.6 s here beside the other worker (2026-11-28).
  it('is not asked again after a restore takes the step away', async () => {
    const { user, store } = renderApp({ route: '/workflows/w-1' });
    await openBigOnes();
    await user.click(screen.getByRole('tab', { name: 'History' }));
    await user.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Restore this version?' })).getByRole('button', { name: 'Restore' }));
    await expectQuietAfter(store);
  }, 15_000);

  it('is left out without a notice when the server has lost the step before the editor knows (an edit elsewhere)', async () => {
    server.use(http.get(api('/workflows/w-1/cost-estimate'), () => HttpResponse.json({ detail: 'Step not found.' }, { status: 404 })));
    const { store } = renderApp({ route: '/workflows/w-1' });
    await screen.findAllByTestId('step-node');
    fireEvent.click(within(nodeNamed('Big ones')).getByText('Big ones'));
    await screen.findByRole('complementary', { name: 'Step settings' });
    await requestsSettled(store);
    expect(screen.queryByText('Step not found.')).not.toBeInTheDocument();
    expect(screen.queryByTestId('cost-estimate')).not.toBeInTheDocument();
  });
});
