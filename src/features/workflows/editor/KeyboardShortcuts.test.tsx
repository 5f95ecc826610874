import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { accountIn, api } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { overlaps } from './layout';
import { info, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// Keys people expect from n8n and Dify: "?" shows the shortcut sheet; Ctrl/⌘+C and Ctrl/⌘+V copy
// the selected steps (params and the connections among them) beside the originals.

const importCsv = info('import_csv', 'Import CSV', 'source', 0, 0);
const filter = info('filter', 'Filter rows', 'transform', 1, 1);
const dedupe = info('deduplicate', 'Remove duplicates', 'transform', 1, 1);

const load: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Load sales', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };
const keep: StepOut = { id: 's-2', workflow_id: 'w-1', step_type: 'filter', name: 'Big ones', param_inputs: {}, inputs: ['s-1'], position: { x: 0, y: 140 } };

describe('keyboard shortcuts', () => {
  let current: WorkflowOut;
  let created: { step_type: string; inputs: string[]; position: { x: number; y: number }; param_inputs: Record<string, unknown> }[];

  beforeEach(() => {
    localStorage.setItem('accessToken', 'good');
    current = workflowWith([{ ...load, param_inputs: { delimiter: 'comma' } }, keep]);
    created = [];
    server.use(
      http.get(api('/workflows/w-1'), () => HttpResponse.json(current)),
      http.get(api('/workflow-step-infos'), () =>
        HttpResponse.json({ items: [importCsv, filter, dedupe], total: 3, page: 1, page_size: 200, ranking: 'text' }),
      ),
      http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
      http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
      http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 })),
      http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), () => HttpResponse.json({ variables: [], fields: [], notes: [], preview_step_ids: [] })),
      http.post(api('/workflow-steps'), async ({ request }) => {
        const body = (await request.json()) as (typeof created)[number];
        created.push(body);
        const step: StepOut = { id: `new-${created.length}`, workflow_id: 'w-1', name: `Copy ${created.length}`, ...body };
        current = workflowWith([...current.steps, step], current.version + 1);
        return HttpResponse.json({ ...step, workflow_version: current.version }, { status: 201 });
      }),
    );
  });

  it('"?" opens the shortcut sheet', async () => {
    const { user } = renderApp({ route: '/workflows/w-1' });
    await screen.findAllByTestId('step-node');
    await user.keyboard('?');
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(sheet).getByText('Paste the copied steps')).toBeInTheDocument();
  });

  it('"?" opens it in Chinese on the Chinese editor', async () => {
    server.use(accountIn('cn'));
    const { user } = renderApp({ route: '/cn/workflows/w-1' });
    await screen.findAllByTestId('step-node');
    await user.keyboard('?');
    const sheet = await screen.findByRole('dialog', { name: '键盘快捷键' });
    // Key caps stay as printed on the keys; the words between and around them are Chinese.
    const deleteRow = within(sheet).getByText('删除选中的步骤或连接').closest('tr')!;
    expect(deleteRow).toHaveTextContent('Delete 或 Backspace');
    expect(within(sheet).getByText('选择多个步骤').closest('tr')).toHaveTextContent('Shift + 点击');
  });

  it('copies the selected steps and pastes them, connected among themselves, where no step is', async () => {
    renderApp({ route: '/workflows/w-1' });
    const nodes = await screen.findAllByTestId('step-node');
    const byName = (name: string) => nodes.find((n) => n.getAttribute('aria-label') === name)!;
    fireEvent.click(within(byName('Load sales')).getByText('Load sales'));
    fireEvent.keyDown(document.body, { key: 'Shift', code: 'ShiftLeft' });
    fireEvent.click(within(byName('Big ones')).getByText('Big ones'));
    fireEvent.keyUp(document.body, { key: 'Shift', code: 'ShiftLeft' });
    await screen.findByText('2 selected');

    fireEvent.keyDown(window, { key: 'c', ctrlKey: true });
    fireEvent.keyDown(window, { key: 'v', ctrlKey: true });
    await waitFor(() => expect(created).toHaveLength(2));
    expect(created[0]).toMatchObject({ step_type: 'import_csv', param_inputs: { delimiter: 'comma' }, inputs: [] });
    expect(created[1]).toMatchObject({ step_type: 'filter', inputs: ['new-1'] });
    const all = [load.position, keep.position, created[0].position, created[1].position];
    for (let a = 0; a < all.length; a++) for (let b = a + 1; b < all.length; b++) expect(overlaps(all[a], all[b])).toBe(false);
    await waitFor(() => expect(screen.getAllByTestId('step-node')).toHaveLength(4));
  });
});
