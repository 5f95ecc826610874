import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepInfoOut } from '../../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { navigate } from '../../../app/navigation';
import { api, testUser } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { info, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// Step settings typed but not saved are kept as a draft per step: clicking another step, leaving
// the page or reloading it loses nothing, and the editor says which steps hold unsaved changes.

const filter: StepInfoOut = {
  ...info('filter', 'Filter rows', 'transform', 0, 1),
  params: [{ name: 'condition', type: 'expression', label: 'Condition', help: 'Which rows to keep.', required: true }],
};
const importCsv: StepInfoOut = {
  ...info('import_csv', 'Import CSV', 'source', 0, 0),
  params: [{ name: 'file', type: 'file', label: 'CSV file', help: 'The CSV file to read.', required: true }],
};

const load: StepOut = {
  id: 's-1',
  workflow_id: 'w-1',
  step_type: 'import_csv',
  name: 'Load sales',
  param_inputs: { file: 'f-1' },
  inputs: [],
  position: { x: 0, y: 0 },
};
const keep: StepOut = {
  id: 's-2',
  workflow_id: 'w-1',
  step_type: 'filter',
  name: 'Big ones',
  param_inputs: { condition: 'amount > 5' },
  inputs: ['s-1'],
  position: { x: 0, y: 140 },
};
const withCondition = (condition: string): StepOut => ({ ...keep, param_inputs: { condition } });

const nodeNamed = (name: string) => screen.getAllByTestId('step-node').find((n) => n.getAttribute('aria-label') === name)!;

/** Opens a step's settings. (A click, not user.click: React Flow's drag handler needs a window on
 *  the mouse-down event, which jsdom leaves out.) */
async function open(name: string) {
  await screen.findAllByTestId('step-node');
  fireEvent.click(within(nodeNamed(name)).getByText(name));
  return screen.findByRole('form', { name: 'Step settings' });
}

const conditionField = () => screen.findByLabelText(/Condition/);

describe('unsaved step settings', () => {
  let current: WorkflowOut;
  let sent: unknown[];
  let undoTo: WorkflowOut[];

  beforeEach(() => {
    localStorage.setItem('accessToken', 'good');
    current = workflowWith([load, keep]);
    sent = [];
    undoTo = [];
    server.use(
      http.get(api('/workflows/w-1'), () => HttpResponse.json(current)),
      http.get(api('/workflow-step-infos'), () => HttpResponse.json({ items: [importCsv, filter], total: 2, page: 1, page_size: 200, ranking: 'text' })),
      http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
      http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
      http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 })),
      http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), () => HttpResponse.json({ variables: [], fields: [], notes: [], preview_step_ids: [] })),
      http.get(api('/files/files/f-1'), () =>
        HttpResponse.json({
          type: 'file',
          id: 'f-1',
          name: 'sales.csv',
          folder_id: null,
          size: 2048,
          content_type: 'text/csv',
          checksum_sha256: 'a'.repeat(64),
          created_at: '2026-11-01T00:00:00Z',
          updated_at: '2026-11-01T00:00:00Z',
          path: [],
        }),
      ),
      http.patch(api('/workflow-steps/s-2/param-inputs/partial'), async ({ request }) => {
        const body = (await request.json()) as { param_inputs: Record<string, unknown> };
        sent.push(body);
        const step = { ...keep, param_inputs: { ...keep.param_inputs, ...body.param_inputs } };
        current = { ...workflowWith([load, step], current.version + 1), can_undo: true };
        return HttpResponse.json({ ...step, workflow_version: current.version });
      }),
      http.delete(api('/workflows/w-1/steps/batch'), () => {
        current = { ...workflowWith([load], current.version + 1), can_undo: true };
        return HttpResponse.json({ deleted: ['s-2'], rewired: [], workflow_version: current.version });
      }),
      http.post(api('/workflow-history/undo'), () => {
        current = { ...undoTo.shift()!, version: current.version + 1, can_undo: true };
        return HttpResponse.json(current);
      }),
    );
  });

  // Over Jest’s 5 s at worst: the editor rendered again for another step, another page and back (3 s alone).
  it('keeps what was typed when another step is opened or another page, and marks the step and its settings unsaved', async () => {
    const { user } = renderApp({ route: '/workflows/w-1' });
    await open('Big ones');
    const condition = await conditionField();
    await user.clear(condition);
    await user.type(condition, "status = 'paid'");
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    await open('Load sales');
    expect(await screen.findByDisplayValue('sales.csv')).toHaveAttribute('id', 'param-file');
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
    const marker = within(nodeNamed('Big ones')).getByTestId('step-unsaved');
    expect(marker).toHaveTextContent('Unsaved');
    expect(within(marker).getByText('This step has settings that are not saved yet.')).toBeInTheDocument();
    expect(within(nodeNamed('Load sales')).queryByTestId('step-unsaved')).not.toBeInTheDocument();

    await open('Big ones');
    expect(await conditionField()).toHaveValue("status = 'paid'");
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    // Off to another page with the top navigation (jsdom's screen is narrow: behind the menu
    // button), and back.
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(await screen.findByRole('link', { name: 'Settings' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    act(() => navigate('/workflows/w-1'));
    await open('Big ones');
    expect(await conditionField()).toHaveValue("status = 'paid'");
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    expect(sent).toEqual([]);
  }, 15_000);

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 6.3 s here beside the other worker (2026-11-28).
  it('restores the draft after a reload; Save sends it and clears the marks', async () => {
    const first = renderApp({ route: '/workflows/w-1' });
    await open('Big ones');
    const condition = await conditionField();
    await first.user.clear(condition);
    await first.user.type(condition, "status = 'paid'");
    first.unmount();

    // A new page load: a fresh store, only the browser's storage remains.
    const { user, unmount } = renderApp({ route: '/workflows/w-1' });
    await screen.findAllByTestId('step-node');
    expect(within(nodeNamed('Big ones')).getByTestId('step-unsaved')).toBeInTheDocument();
    const form = await open('Big ones');
    expect(await conditionField()).toHaveValue("status = 'paid'");
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    await user.click(within(form).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(sent).toEqual([{ param_inputs: { condition: "status = 'paid'" } }]));
    await waitFor(() => expect(within(nodeNamed('Big ones')).queryByTestId('step-unsaved')).not.toBeInTheDocument());
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
    unmount();

    // Nothing is left to restore: the saved step is what shows.
    renderApp({ route: '/workflows/w-1' });
    await screen.findAllByTestId('step-node');
    expect(within(nodeNamed('Big ones')).queryByTestId('step-unsaved')).not.toBeInTheDocument();
    await open('Big ones');
    expect(await conditionField()).toHaveValue("status = 'paid'");
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
    expect(sent).toHaveLength(1);
  }, 15_000);

  it('Discard brings back the saved values', async () => {
    const { user } = renderApp({ route: '/workflows/w-1' });
    const form = await open('Big ones');
    await user.type(await conditionField(), ' and paid');
    expect(within(nodeNamed('Big ones')).getByTestId('step-unsaved')).toBeInTheDocument();

    await user.click(within(form).getByRole('button', { name: 'Discard changes' }));
    expect(await conditionField()).toHaveValue('amount > 5');
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
    expect(within(nodeNamed('Big ones')).queryByTestId('step-unsaved')).not.toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 2.9 s here beside the other worker (2026-11-28).
  it('is not shown to another account signed in on the same browser', async () => {
    const first = renderApp({ route: '/workflows/w-1' });
    await open('Big ones');
    await first.user.type(await conditionField(), ' and paid');
    expect(within(nodeNamed('Big ones')).getByTestId('step-unsaved')).toBeInTheDocument();
    first.unmount();

    server.use(http.get(api('/users/me'), () => HttpResponse.json({ ...testUser, id: 'u-2', email: 'grace@example.com' })));
    renderApp({ route: '/workflows/w-1' });
    await screen.findAllByTestId('step-node');
    expect(screen.queryByTestId('step-unsaved')).not.toBeInTheDocument();
    await open('Big ones');
    expect(await conditionField()).toHaveValue('amount > 5');
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
  }, 15_000);

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 4.0 s here beside the other worker (2026-11-28).
  it('says so when the saved step changed underneath, and lets the user keep the draft or take the saved values', async () => {
    current = { ...current, can_undo: true };
    undoTo = [workflowWith([load, withCondition('amount > 100')]), workflowWith([load, withCondition('amount > 1000')])];
    const { user } = renderApp({ route: '/workflows/w-1' });
    await open('Big ones');
    const condition = await conditionField();
    await user.clear(condition);
    await user.type(condition, 'amount > 50');

    // Undo changes the saved condition: the draft stays, and the editor asks.
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    const warning = await screen.findByText('This step was changed since you started editing it.');
    expect(warning).toBeInTheDocument();
    expect(await conditionField()).toHaveValue('amount > 50');
    await user.click(screen.getByRole('button', { name: 'Keep my changes' }));
    expect(screen.queryByText('This step was changed since you started editing it.')).not.toBeInTheDocument();
    expect(await conditionField()).toHaveValue('amount > 50');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    // Changed again: this time the saved values win.
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('This step was changed since you started editing it.');
    await user.click(screen.getByRole('button', { name: 'Use saved values' }));
    expect(await conditionField()).toHaveValue('amount > 1000');
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
    expect(within(nodeNamed('Big ones')).queryByTestId('step-unsaved')).not.toBeInTheDocument();
    expect(sent).toEqual([]);
  }, 15_000);

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 3.4 s here beside the other worker (2026-11-28).
  it('is dropped when its step is deleted', async () => {
    undoTo = [workflowWith([load, keep])];
    const { user } = renderApp({ route: '/workflows/w-1' });
    await open('Big ones');
    await user.type(await conditionField(), ' and paid');
    expect(within(nodeNamed('Big ones')).getByTestId('step-unsaved')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete step' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Delete the step “Big ones”?' })).getByRole('button', { name: 'Delete step' }));
    await waitFor(() => expect(screen.getAllByTestId('step-node')).toHaveLength(1));

    // Undo brings the step back as it was saved, without the draft.
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(screen.getAllByTestId('step-node')).toHaveLength(2));
    expect(within(nodeNamed('Big ones')).queryByTestId('step-unsaved')).not.toBeInTheDocument();
    await open('Big ones');
    expect(await conditionField()).toHaveValue('amount > 5');
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
  }, 15_000);
});
