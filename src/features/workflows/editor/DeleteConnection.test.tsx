import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { accountIn, api } from '../../../test/handlers';
import { renderApp } from '../../../test/renderWithProviders';
import { server } from '../../../test/server';
import { info, workflowWith } from './editorFixtures';
import '../../../test/opensEditor';

// A connection can be selected and deleted, with the Delete key or the button that shows up, and
// the change is saved (the target step's inputs without that source).

const importCsv = info('import_csv', 'Import CSV', 'source', 0, 0);
const filter = info('filter', 'Filter rows', 'transform', 1, 1);
const dedupe = info('deduplicate', 'Remove duplicates', 'transform', 1, 1);

const load: StepOut = { id: 's-1', workflow_id: 'w-1', step_type: 'import_csv', name: 'Load sales', param_inputs: {}, inputs: [], position: { x: 0, y: 0 } };
const keep: StepOut = { id: 's-2', workflow_id: 'w-1', step_type: 'filter', name: 'Big ones', param_inputs: {}, inputs: ['s-1'], position: { x: 0, y: 140 } };

// jsdom lays nothing out: React Flow draws edges only between measured nodes, so give the nodes a
// size and let the ResizeObserver report them.
const sizes: PropertyDescriptor[] = [];
beforeAll(() => {
  sizes.push(Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetWidth')!, Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!);
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get: () => 224 });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 80 });
  class ReportingResizeObserver {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element) {
      this.callback([{ target } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
    }
    unobserve() {}
    disconnect() {}
  }
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = ReportingResizeObserver;
  // React Flow reads the zoom from the viewport's transform (m22).
  (window as unknown as { DOMMatrixReadOnly: unknown }).DOMMatrixReadOnly = class {
    m22 = 1;
  };
});
afterAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', sizes[0]);
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', sizes[1]);
});

describe('deleting a connection', () => {
  let current: WorkflowOut;
  let saved: { stepId: string; body: unknown }[];

  beforeEach(() => {
    localStorage.setItem('accessToken', 'good');
    current = workflowWith([load, keep]);
    saved = [];
    server.use(
      http.get(api('/workflows/w-1'), () => HttpResponse.json(current)),
      http.get(api('/workflow-step-infos'), () =>
        HttpResponse.json({ items: [importCsv, filter, dedupe], total: 3, page: 1, page_size: 200, ranking: 'text' }),
      ),
      http.get(api('/workflow-step-infos/categories'), () => HttpResponse.json({ items: [] })),
      http.get(api('/workflows/w-1/variables'), () => HttpResponse.json({ items: [] })),
      http.post(api('/workflow-history/commits'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50 })),
      http.put(api('/workflow-steps/:stepId'), async ({ params, request }) => {
        const body = (await request.json()) as { inputs: string[] };
        saved.push({ stepId: String(params.stepId), body });
        current = workflowWith([load, { ...keep, inputs: body.inputs }], current.version + 1);
        return HttpResponse.json({ ...current.steps[1], workflow_version: current.version });
      }),
    );
  });

  const edge = async () => {
    await waitFor(() => expect(document.querySelector('.react-flow__edge')).not.toBeNull());
    return document.querySelector('.react-flow__edge') as Element;
  };

  it('with the button that shows up once it is selected', async () => {
    const { user } = renderApp({ route: '/workflows/w-1' });
    expect(screen.queryByRole('button', { name: 'Delete connection' })).not.toBeInTheDocument();
    fireEvent.click(await edge());
    await user.click(await screen.findByRole('button', { name: 'Delete connection' }));
    await waitFor(() => expect(saved).toEqual([{ stepId: 's-2', body: { inputs: [] } }]));
    await waitFor(() => expect(document.querySelector('.react-flow__edge')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Delete connection' })).not.toBeInTheDocument();
  });

  it('with the Delete key', async () => {
    renderApp({ route: '/workflows/w-1' });
    const line = await edge();
    fireEvent.click(line);
    await screen.findByRole('button', { name: 'Delete connection' });
    fireEvent.keyDown(document.body, { key: 'Delete', code: 'Delete' });
    await waitFor(() => expect(saved).toEqual([{ stepId: 's-2', body: { inputs: [] } }]));
  });

  it('is offered in Chinese on the Chinese editor', async () => {
    server.use(accountIn('cn'));
    renderApp({ route: '/cn/workflows/w-1' });
    fireEvent.click(await edge());
    expect(await screen.findByRole('button', { name: '删除连接' })).toBeInTheDocument();
  });
});
