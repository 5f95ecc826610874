import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { accountIn, api } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { serveEditor, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// Deleting a step is asked first, naming it, however it is asked for: the settings panel's
// "Delete step", the Delete key on the canvas, the bar of a multiple selection.

const load: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Load sales', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };
const keep: StepOut = { id: 's-2', workflow_id: 'w-1', step_type: 'filter', name: 'Big ones', param_inputs: {}, inputs: ['s-1'], position: { x: 0, y: 140 } };

describe('deleting a step', () => {
  let current: WorkflowOut;
  let deleted: string[];

  beforeEach(() => {
    current = workflowWith([load, keep]);
    deleted = [];
    serveEditor({ workflow: () => current });
    server.use(
      http.delete(api('/workflows/w-1/steps/batch'), ({ request }) => {
        const ids = new URL(request.url).searchParams.get('step_ids')!.split(',');
        deleted.push(...ids);
        current = {
          ...workflowWith(
            current.steps.filter((s) => !ids.includes(s.id)),
            current.version + 1,
          ),
          can_undo: true,
        };
        return HttpResponse.json({ deleted: ids, rewired: [], workflow_version: current.version });
      }),
    );
  });

  const nodeNamed = (name: string) => screen.getAllByTestId('step-node').find((n) => n.getAttribute('aria-label') === name)!;
  // A click, not user.click: React Flow's drag handler needs a window on the mouse-down event.
  const select = async (name: string) => {
    await screen.findAllByTestId('step-node');
    fireEvent.click(within(nodeNamed(name)).getByText(name));
  };

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 4.0 s here beside the other worker (2026-11-28).
  it('from the settings panel asks first, naming the step: Cancel keeps it, "Delete step" deletes it', async () => {
    const { user } = renderApp({ route: '/workflows/w-1' });
    await select('Big ones');
    const inspector = await screen.findByRole('complementary', { name: 'Step settings' });

    await user.click(within(inspector).getByRole('button', { name: 'Delete step' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete the step “Big ones”?' });
    expect(within(dialog).getByText(/The step and its settings leave the workflow\..*Undo brings it back\./)).toBeInTheDocument();
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Cancel', 'Delete step']);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(deleted).toEqual([]);
    expect(screen.getAllByTestId('step-node')).toHaveLength(2);

    await user.click(within(inspector).getByRole('button', { name: 'Delete step' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete step' }));
    await waitFor(() => expect(deleted).toEqual(['s-2']));
    await waitFor(() => expect(screen.getAllByTestId('step-node')).toHaveLength(1));
    expect(screen.queryByRole('complementary', { name: 'Step settings' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  }, 15_000);

  it('with the Delete key asks first too', async () => {
    const { user } = renderApp({ route: '/workflows/w-1' });
    await select('Load sales');
    await screen.findByRole('complementary', { name: 'Step settings' });
    fireEvent.keyDown(document.body, { key: 'Delete', code: 'Delete' });
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete the step “Load sales”?' });
    expect(deleted).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete step' }));
    await waitFor(() => expect(deleted).toEqual(['s-1']));
  });

  it('of several selected lists them before deleting', async () => {
    const { user } = renderApp({ route: '/workflows/w-1' });
    await select('Load sales');
    // Shift held down adds to the selection (React Flow tracks the key, not the click's flag).
    fireEvent.keyDown(document, { key: 'Shift', code: 'ShiftLeft' });
    fireEvent.click(within(nodeNamed('Big ones')).getByText('Big ones'), { shiftKey: true });
    fireEvent.keyUp(document, { key: 'Shift', code: 'ShiftLeft' });
    await screen.findByText('2 selected');

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete 2 steps?' });
    expect(
      within(within(dialog).getByRole('list', { name: 'Steps to delete' }))
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual(['Load sales', 'Big ones']);
    expect(deleted).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete steps' }));
    await waitFor(() => expect(deleted).toEqual(['s-1', 's-2']));
  });

  it('is asked in Chinese on the Chinese editor', async () => {
    server.use(accountIn('cn'));
    const { user } = renderApp({ route: '/cn/workflows/w-1' });
    await select('Big ones');
    const inspector = await screen.findByRole('complementary', { name: '步骤设置' });
    await user.click(within(inspector).getByRole('button', { name: '删除步骤' }));
    const dialog = await screen.findByRole('alertdialog', { name: '删除步骤“Big ones”？' });
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['取消', '删除步骤']);
  });
});
