import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { DatasetOut, RecordsPageOut } from '../../../server/src/modules/datasets/datasets.schemas';
import { datasetOut } from '../../test/datasets';
import { api } from '../../test/handlers';
import { renderWithProviders } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { keep, load, stepRunOf } from '../runs/runFixtures';
import type { StepRun } from '../runs/runsApi';
import { StepData } from './StepData';

// Beside the selected step, its data: the input it read and the output it wrote, with the count,
// the columns and their types, and the first rows. The server is msw's.

const dataset = (id: string, rows: Record<string, unknown>[], columns: DatasetOut['columns']): { meta: DatasetOut; rows: Record<string, unknown>[] } => ({
  meta: datasetOut(id, columns, rows.length),
  rows: rows.map((row, i) => ({ _id: `${id}-${i}`, ...row })),
});

const leads = dataset(
  'ds-leads',
  [
    { company: 'Acme', size: 120 },
    { company: 'Globex', size: 8 },
    { company: 'Initech', size: null },
  ],
  [
    { name: 'company', type: 'VARCHAR' },
    { name: 'size', type: 'BIGINT' },
  ],
);
const big = dataset(
  'ds-big',
  [{ company: 'Acme', size: 120 }],
  [
    { name: 'company', type: 'VARCHAR' },
    { name: 'size', type: 'BIGINT' },
  ],
);
const all = [leads, big];

let recordsAsked: string[];

beforeEach(() => {
  recordsAsked = [];
  server.use(
    http.get(api('/datasets/:id'), ({ params }) => {
      const found = all.find((d) => d.meta.id === params.id);
      return found ? HttpResponse.json(found.meta) : HttpResponse.json({ detail: 'Dataset not found.' }, { status: 404 });
    }),
    http.get(api('/datasets/:id/records'), ({ params, request }) => {
      recordsAsked.push(`${String(params.id)}?${new URL(request.url).searchParams.toString()}`);
      const found = all.find((d) => d.meta.id === params.id)!;
      return HttpResponse.json({ items: found.rows, total: found.rows.length, page: 1, page_size: 5, columns: found.meta.columns } satisfies RecordsPageOut);
    }),
  );
});

const finished = (stepId: string, outputId: string): StepRun =>
  stepRunOf(stepId, stepId, { state: 'succeeded', output_dataset_id: outputId, records_total: null, records_done: 0 });

it('shows the output of the run shown: its count, its columns with their types and its first rows, and links to the whole dataset', async () => {
  renderWithProviders(<StepData step={keep} stepRuns={new Map([[keep.id, finished(keep.id, 'ds-big')]])} />);
  const panel = screen.getByTestId('step-data');
  expect(await within(panel).findByTestId('step-data-count')).toHaveTextContent('1 row · 2 columns');
  const columns = within(panel).getByRole('list', { name: 'Columns and their types' });
  expect(
    within(columns)
      .getAllByRole('listitem')
      .map((c) => c.textContent),
  ).toEqual(['companyVARCHAR', 'sizeBIGINT']);
  const table = await within(panel).findByRole('table', { name: 'First rows' });
  expect(
    within(table)
      .getAllByRole('row')
      .map((r) => r.textContent),
  ).toEqual(['companyVARCHARsizeBIGINT', 'Acme120']);
  expect(within(panel).getByRole('link', { name: 'Open dataset' })).toHaveAttribute('href', '/datasets/ds-big');
  expect(recordsAsked).toEqual(['ds-big?page=1&page_size=5']);
});

it('shows what the step read on its Input tab: the output of the step before it, nulls marked', async () => {
  const { user } = renderWithProviders(
    <StepData
      step={keep}
      stepRuns={
        new Map([
          [load.id, finished(load.id, 'ds-leads')],
          [keep.id, finished(keep.id, 'ds-big')],
        ])
      }
    />,
  );
  await screen.findByText('1 row · 2 columns');
  await user.click(screen.getByRole('tab', { name: 'Input' }));
  expect(await screen.findByTestId('step-data-count')).toHaveTextContent('3 rows · 2 columns');
  const table = await screen.findByRole('table', { name: 'First rows' });
  expect(
    within(table)
      .getAllByRole('row')
      .map((r) => r.textContent),
  ).toEqual(['companyVARCHARsizeBIGINT', 'Acme120', 'Globex8', 'Initechnull']);
});

it("falls back to the step's newest output when the run shown did not reach it", async () => {
  server.use(http.get(api('/workflow-steps/s-2/output-dataset'), () => HttpResponse.json(leads.meta)));
  renderWithProviders(<StepData step={keep} stepRuns={new Map([[keep.id, stepRunOf(keep.id, 'Keep', { state: 'cancelled' })]])} />);
  expect(await screen.findByTestId('step-data-count')).toHaveTextContent('3 rows · 2 columns');
  expect(screen.getByRole('link', { name: 'Open dataset' })).toHaveAttribute('href', '/datasets/ds-leads');
});

it('says how to get data before the step has run, and a source has no Input tab', async () => {
  renderWithProviders(<StepData step={load} stepRuns={new Map()} />);
  expect(await screen.findByTestId('step-data-none')).toHaveTextContent(
    "No output yet. Preview on a sample (above) or run the workflow to see this step's rows, columns and count here.",
  );
  expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  expect(recordsAsked).toEqual([]);
});
