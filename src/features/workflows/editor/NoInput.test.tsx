import { screen, within } from '@testing-library/react';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import { accountIn } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { info, refuseRuns, serveEditor, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// A step whose type needs an input but has none (an HTTP step skipped by a connection drawn past
// it, a filter dropped on its own) says so on its node.

const importCsv = info('import_csv', 'Import CSV', 'source', 0, 0);
const filter = info('filter', 'Filter rows', 'transform', 1, 1);
const dedupe = info('deduplicate', 'Remove duplicates', 'transform', 1, 1);

const load: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Load sales', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };
const keep: StepOut = { id: 's-2', workflow_id: 'w-1', step_type: 'filter', name: 'Big ones', param_inputs: {}, inputs: ['s-1'], position: { x: 0, y: 140 } };
const alone: StepOut = { id: 's-3', workflow_id: 'w-1', step_type: 'deduplicate', name: 'Unique', param_inputs: {}, inputs: [], position: { x: 300, y: 140 } };

describe('a step with no input', () => {
  beforeEach(() => {
    serveEditor({ workflow: workflowWith([load, keep, alone]), infos: [importCsv, filter, dedupe] });
  });

  const node = (name: string) => screen.getAllByTestId('step-node').find((n) => n.getAttribute('aria-label') === name)!;

  it('is marked "No input" on the canvas; a connected step and a source are not', async () => {
    renderApp({ route: '/workflows/w-1' });
    const marker = await screen.findByTestId('step-no-input');
    expect(node('Unique')).toContainElement(marker);
    expect(marker).toHaveTextContent('No input');
    expect(within(node('Big ones')).queryByTestId('step-no-input')).not.toBeInTheDocument();
    expect(within(node('Load sales')).queryByTestId('step-no-input')).not.toBeInTheDocument();
  });

  it('keeps Run workflow from asking the server, which would refuse it: a click says it needs an input', async () => {
    const started = refuseRuns();
    const { user } = renderApp({ route: '/workflows/w-1' });
    await screen.findByTestId('step-no-input');
    await user.click(screen.getByRole('button', { name: 'Run workflow' }));
    const why = await screen.findByTestId('run-needs-settings');
    expect(
      within(why)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['UniqueNeeds 1 input connected']);
    expect(started).toEqual([]);
  });

  it('says so in Chinese on the Chinese editor', async () => {
    // A Chinese account: an English one is moved out of /cn once the app knows it (UserLocaleSync).
    server.use(accountIn('cn'));
    renderApp({ route: '/cn/workflows/w-1' });
    expect(await screen.findByTestId('step-no-input')).toHaveTextContent('无输入');
  });
});
