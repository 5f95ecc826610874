import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { accountIn, api } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { overlaps } from './layout';
import { info, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// "Tidy up": a graph drawn in one column (an edge running behind the step between) is laid out in
// layers, nothing on top of anything, and each moved step's new place is saved.

const importCsv = info('import_csv', 'Import CSV', 'source', 0, 0);
const filter = info('filter', 'Filter rows', 'transform', 1, 1);
const dedupe = info('deduplicate', 'Remove duplicates', 'transform', 1, 1);

const load: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Load sales', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };
const http_: StepOut = {
  id: 's-2',
  workflow_id: 'w-1',
  step_type: 'deduplicate',
  name: 'Unique',
  param_inputs: {},
  inputs: ['s-1'],
  position: { x: 0, y: 120 },
};
const keep: StepOut = { id: 's-3', workflow_id: 'w-1', step_type: 'filter', name: 'Big ones', param_inputs: {}, inputs: ['s-1'], position: { x: 0, y: 240 } };
const other: StepOut = {
  id: 's-4',
  workflow_id: 'w-1',
  step_type: 'filter',
  name: 'Small ones',
  param_inputs: {},
  inputs: ['s-2'],
  position: { x: 0, y: 240 },
};

describe('tidying up the canvas', () => {
  let current: WorkflowOut;
  let saved: Map<string, { x: number; y: number }>;

  beforeEach(() => {
    localStorage.setItem('accessToken', 'good');
    current = workflowWith([load, http_, keep, other]);
    saved = new Map();
    server.use(
      http.get(api('/workflows/w-1'), () => HttpResponse.json(current)),
      http.get(api('/workflow-step-infos'), () =>
        HttpResponse.json({ items: [importCsv, filter, dedupe], total: 3, page: 1, page_size: 200, ranking: 'text' }),
      ),
      http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
      http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
      http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 })),
      http.put(api('/workflow-steps/:stepId'), async ({ params, request }) => {
        const body = (await request.json()) as { position: { x: number; y: number } };
        saved.set(String(params.stepId), body.position);
        const version = current.version + 1;
        current = workflowWith(
          current.steps.map((s) => (s.id === params.stepId ? { ...s, position: body.position } : s)),
          version,
        );
        return HttpResponse.json({ ...current.steps.find((s) => s.id === params.stepId), workflow_version: version });
      }),
    );
  });

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 4.7 s here beside the other worker (2026-11-28).
  it('lays the steps out in layers with none on top of another, and saves the moved ones', async () => {
    const { user } = renderApp({ route: '/workflows/w-1' });
    await screen.findAllByTestId('step-node');
    await user.click(screen.getByRole('button', { name: 'Tidy up' }));
    await waitFor(() => expect(saved.size).toBeGreaterThanOrEqual(3));
    const at = new Map(current.steps.map((s) => [s.id, s.position]));
    for (const a of at.keys()) for (const b of at.keys()) if (a !== b) expect(overlaps(at.get(a)!, at.get(b)!)).toBe(false);
    // Each step is below what it reads.
    for (const s of current.steps) for (const input of s.inputs) expect(at.get(s.id)!.y).toBeGreaterThan(at.get(input)!.y);
  }, 15_000);

  it('is labelled in Chinese on the Chinese editor', async () => {
    // A Chinese account: an English one is moved out of /cn once the app knows it (UserLocaleSync).
    server.use(accountIn('cn'));
    renderApp({ route: '/cn/workflows/w-1' });
    expect(await screen.findByRole('button', { name: '整理布局' })).toBeInTheDocument();
  });
});
