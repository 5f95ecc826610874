import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import { accountIn, api } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { info, workflowWith } from './editorFixtures';
import { EDITOR_FIRST_RENDER } from '../../../test/waits';

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
    localStorage.setItem('accessToken', 'good');
    server.use(
      http.get(api('/workflows/w-1'), () => HttpResponse.json(workflowWith([load, keep, alone]))),
      http.get(api('/workflow-step-infos'), () =>
        HttpResponse.json({ items: [importCsv, filter, dedupe], total: 3, page: 1, page_size: 200, ranking: 'text' }),
      ),
      http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
      http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
      http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 })),
    );
  });

  const node = (name: string) => screen.getAllByTestId('step-node').find((n) => n.getAttribute('aria-label') === name)!;

  it('is marked "No input" on the canvas; a connected step and a source are not', async () => {
    renderApp({ route: '/workflows/w-1' });
    const marker = await screen.findByTestId('step-no-input', {}, EDITOR_FIRST_RENDER);
    expect(node('Unique')).toContainElement(marker);
    expect(marker).toHaveTextContent('No input');
    expect(within(node('Big ones')).queryByTestId('step-no-input')).not.toBeInTheDocument();
    expect(within(node('Load sales')).queryByTestId('step-no-input')).not.toBeInTheDocument();
  });

  it('says so in Chinese on the Chinese editor', async () => {
    // A Chinese account: an English one is moved out of /cn once the app knows it (UserLocaleSync).
    server.use(accountIn('cn'));
    renderApp({ route: '/cn/workflows/w-1' });
    expect(await screen.findByTestId('step-no-input', {}, EDITOR_FIRST_RENDER)).toHaveTextContent('无输入');
  });
});
