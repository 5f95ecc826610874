import type { ComponentProps } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { DatasetListOut, DatasetOut } from '../../../server/src/modules/datasets/datasets.schemas';
import type { StepInfoOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { api } from '../../test/handlers';
import { renderWithProviders } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { StepInspector } from './StepInspector';

// A step's dataset param is chosen from the user's datasets (GET /datasets/), never typed as an id.
// The datasets API is msw's.

const at = '2026-03-14T10:00:00.000Z';
const summary = (id: string, name: string, workflow_name: string | null): DatasetListOut['items'][number] => ({
  id,
  name,
  row_count: 1200,
  bytes: 4096,
  created_at: at,
  expires_at: null,
  workflow_id: workflow_name ? 'w-9' : null,
  workflow_name,
  step_id: workflow_name ? 'clean' : null,
});
const all = [summary('ds-sales', 'Cleaned sales', 'Monthly sales'), summary('ds-cust', 'Customers', null)];
const detail = (d: (typeof all)[number]): DatasetOut => ({
  id: d.id,
  name: d.name,
  columns: [],
  row_count: d.row_count ?? 0,
  bytes: d.bytes,
  step_run_id: null,
  run_id: null,
  workflow_id: null,
  step_id: null,
  created_at: d.created_at,
  expires_at: null,
});

let queries: string[];
let saved: unknown[];

beforeEach(() => {
  queries = [];
  saved = [];
  server.use(
    http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), () => HttpResponse.json({ variables: [], fields: [], notes: [], preview_step_ids: [] })),
    http.get(api('/datasets/'), ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      queries.push(q);
      const items = all.filter((d) => d.name.toLowerCase().includes(q.toLowerCase()));
      return HttpResponse.json({ items, total: items.length, page: 1, page_size: 20 } satisfies DatasetListOut);
    }),
    http.get(api('/datasets/:id'), ({ params }) => {
      const found = all.find((d) => d.id === params.id);
      return found ? HttpResponse.json(detail(found)) : HttpResponse.json({ detail: 'Dataset not found.' }, { status: 404 });
    }),
    http.patch(api('/workflow-steps/:stepId/param-inputs/partial'), async ({ request }) => {
      const body = (await request.json()) as { param_inputs: Record<string, unknown> };
      saved.push(body);
      return HttpResponse.json({ ...step(body.param_inputs), workflow_version: 4 });
    }),
  );
});

const importDataset: StepInfoOut = {
  id: 'import_dataset',
  name: 'Use dataset',
  description: 'Use dataset',
  category: 'source',
  tags: [],
  params: [{ name: 'dataset', type: 'dataset', label: 'Dataset', help: 'Dataset help', required: true }],
  inputs: { min: 0, max: 0 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: '' },
  customized: false,
};
const step = (param_inputs: Record<string, unknown> = {}): StepOut => ({
  id: 's-1',
  workflow_id: 'w-1',
  step_type: 'import_dataset',
  name: 'Use dataset',
  param_inputs,
  inputs: [],
  position: { x: 0, y: 0 },
});

function renderInspector(values: Record<string, unknown> = {}, route = '/') {
  const write: ComponentProps<typeof StepInspector>['write'] = async (send) => send(3);
  return renderWithProviders(
    <StepInspector workflowId="w-1" step={step(values)} info={importDataset} write={write} onClose={jest.fn()} onDelete={jest.fn()} onDuplicate={jest.fn()} />,
    { route },
  );
}

describe('dataset param picker', () => {
  it('lists the user’s datasets, chooses one by name, shows that name and saves its id', async () => {
    const { user } = renderInspector();
    const field = screen.getByRole('textbox', { name: /^Dataset/ });
    expect(field).toHaveAttribute('placeholder', 'No dataset chosen');

    await user.click(screen.getByRole('button', { name: 'Choose Dataset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dataset' });
    const sales = await within(dialog).findByRole('button', { name: /Cleaned sales/ });
    expect(sales).toHaveAccessibleDescription(/1,200 rows · .* · from “Monthly sales”/);
    expect(within(dialog).getByRole('button', { name: /Customers/ })).toHaveAccessibleDescription(/not made by a workflow/);
    expect(within(dialog).getByRole('button', { name: 'Choose dataset' })).toBeDisabled();
    await user.click(sales);
    expect(within(dialog).getByText('Selected: Cleaned sales')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Choose dataset' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByDisplayValue('Cleaned sales')).toBe(field);
    expect(screen.queryByDisplayValue('ds-sales')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(saved).toEqual([{ param_inputs: { dataset: 'ds-sales' } }]));
  });

  it('sends the name filter to the server as q', async () => {
    const { user } = renderInspector();
    await user.click(screen.getByRole('button', { name: 'Choose Dataset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dataset' });
    await within(dialog).findByRole('button', { name: /Cleaned sales/ });
    await user.type(within(dialog).getByRole('textbox', { name: 'Filter by name' }), 'cust');
    await waitFor(() => expect(queries).toContain('cust'));
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: /Cleaned sales/ })).not.toBeInTheDocument());
    expect(within(dialog).getByRole('button', { name: /Customers/ })).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('textbox', { name: 'Filter by name' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Filter by name' }), 'zzz');
    expect(await within(dialog).findByText('No dataset name contains “zzz”.')).toBeInTheDocument();
  });

  it('names the saved dataset, and says so (in either language) when it is gone', async () => {
    const first = renderInspector({ dataset: 'ds-cust' });
    expect(await screen.findByDisplayValue('Customers')).toBeInTheDocument();
    first.unmount();

    const gone = renderInspector({ dataset: 'ds-deleted' });
    expect(await screen.findByDisplayValue('Dataset not found: choose another')).toBeInTheDocument();
    expect(screen.queryByText('Dataset not found.')).not.toBeInTheDocument();
    gone.unmount();

    const { user } = renderInspector({ dataset: 'ds-deleted' }, '/cn');
    expect(await screen.findByDisplayValue('找不到数据集：请另选一个')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '更换Dataset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dataset' });
    expect(await within(dialog).findByRole('button', { name: /Cleaned sales/ })).toHaveAccessibleDescription(/1,200 行 · .* · 来自“Monthly sales”/);
    expect(within(dialog).getByRole('button', { name: '选择数据集' })).toBeDisabled();
  });
});
