import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router-dom';
import type { CompareOut, DatasetOut } from '../../../server/src/modules/datasets/datasets.schemas';
import { api } from '../../test/handlers';
import { renderWithProviders, signedInState } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { DatasetPage } from './DatasetPage';

const current: DatasetOut = {
  id: 'ds-new',
  name: 'Orders',
  columns: [
    { name: '_id', type: 'VARCHAR' },
    { name: 'sku', type: 'VARCHAR' },
    { name: 'price', type: 'DOUBLE' },
    { name: 'colour', type: 'VARCHAR' },
  ],
  row_count: 3,
  bytes: 900,
  step_run_id: 'sr-2',
  run_id: 'r-2',
  workflow_id: 'w-1',
  step_id: 's-1',
  parents: [],
  created_at: '2026-03-15T10:00:00.000Z',
  expires_at: null,
};
const earlier: DatasetOut = {
  ...current,
  id: 'ds-old',
  columns: [
    { name: '_id', type: 'VARCHAR' },
    { name: 'sku', type: 'VARCHAR' },
    { name: 'price', type: 'DOUBLE' },
    { name: 'note', type: 'VARCHAR' },
  ],
  step_run_id: 'sr-1',
  run_id: 'r-1',
  created_at: '2026-03-14T10:00:00.000Z',
};
const comparison: CompareOut = {
  schema: { added: [{ name: 'colour', type: 'VARCHAR' }], removed: [{ name: 'note', type: 'VARCHAR' }], type_changed: [] },
  counts: { added: 1, removed: 1, changed: 1, unchanged: 1200 },
  items: [
    { status: 'removed', key: 'C-3', changes: [], record: { _id: 'x', sku: 'C-3', price: 1, note: 'y' } },
    { status: 'added', key: 'Ü-4', changes: [], record: { _id: 'z', sku: 'Ü-4', price: 9, colour: 'red' } },
    { status: 'changed', key: '北京-1', changes: [{ column: 'price', before: 2.5, after: null }] },
  ],
  total: 3,
  page: 1,
  page_size: 50,
};

let asked: URLSearchParams[];

function useServer(siblings: (Omit<DatasetOut, 'row_count'> & { row_count: number | null })[] = [earlier]) {
  asked = [];
  server.use(
    http.get(api('/datasets/:id'), ({ params }) => HttpResponse.json(params.id === 'ds-old' ? earlier : current)),
    http.get(api('/datasets/:id/records'), () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 50, columns: current.columns })),
    http.get(api('/datasets/:id/siblings'), () =>
      HttpResponse.json({
        items: siblings.map((d) => ({ id: d.id, name: d.name, run_id: d.run_id, row_count: d.row_count, created_at: d.created_at, expires_at: d.expires_at })),
      }),
    ),
    http.get(api('/datasets/:id/compare'), ({ request, params }) => {
      const query = new URL(request.url).searchParams;
      asked.push(query);
      expect(params.id).toBe('ds-new');
      if (query.get('key') === '_id') {
        return HttpResponse.json(
          { errors: [{ msg: 'Column “_id” does not identify each record: 2 of its values are repeated or empty.', loc: ['query', 'key'] }] },
          { status: 422 },
        );
      }
      const show = query.get('show');
      return HttpResponse.json(show === 'changed' ? { ...comparison, items: comparison.items.slice(2), total: 1 } : comparison);
    }),
  );
}

function renderPage(route = '/datasets/ds-new') {
  return renderWithProviders(
    <Routes>
      <Route path="/datasets/:datasetId" element={<DatasetPage />} />
      <Route path="/cn/datasets/:datasetId" element={<DatasetPage />} />
    </Routes>,
    { route, preloadedState: signedInState() },
  );
}

describe('comparing a dataset with an earlier output of its step', () => {
  it('names an earlier output not written yet (deferred) without a row count', async () => {
    useServer([{ ...earlier, row_count: null }]);
    const { user } = renderPage();
    await user.click(await screen.findByRole('tab', { name: 'Compare' }));
    const withPicker = await screen.findByRole('combobox', { name: 'Compare with…' });
    const labels = within(withPicker)
      .getAllByRole('option')
      .map((o) => o.textContent ?? '');
    expect(labels[1]).toMatch(/^Orders, .*\(rows not counted yet\)$/);
    expect(labels.join(' ')).not.toMatch(/NaN|null/);
  });

  it('picks the earlier output and a key both have, then shows counts, column changes and changed cells before → after', async () => {
    useServer();
    const { user } = renderPage();
    await user.click(await screen.findByRole('tab', { name: 'Compare' }));
    const withPicker = await screen.findByRole('combobox', { name: 'Compare with…' });
    expect(screen.getByText('Pick an earlier output and the column that identifies a record in both.')).toBeInTheDocument();
    await user.selectOptions(withPicker, 'ds-old');
    const keyPicker = screen.getByRole('combobox', { name: 'Key column…' });
    // Only the columns both datasets have can match records.
    await waitFor(() =>
      expect(
        within(keyPicker)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Key column…', '_id', 'sku', 'price']),
    );
    await user.selectOptions(keyPicker, 'sku');

    const counts = await screen.findByRole('list', { name: 'Records compared' });
    expect(
      within(counts)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual(['1 added', '1 removed', '1 changed', '1,200 unchanged']);
    const schema = screen.getByRole('list', { name: 'Column changes' });
    expect(
      within(schema)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual(['Column “colour” (VARCHAR) added', 'Column “note” (VARCHAR) removed']);
    const table = screen.getByRole('table', { name: 'Differing records' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1].textContent)).toEqual(['C-3', 'Ü-4', '北京-1']);
    expect(rows[0]).toHaveTextContent('Removed');
    expect(rows[0]).toHaveTextContent('sku: C-3 · price: 1 · note: y');
    const changed = rows[2];
    expect(within(changed).getByText('2.5').tagName).toBe('DEL');
    expect(within(changed).getByText('null').tagName).toBe('INS');
    expect(asked[0].get('with')).toBe('ds-old');
    expect(asked[0].get('key')).toBe('sku');
    expect(asked[0].get('show')).toBe('all');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Differences to list' }), 'changed');
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Differing records' })).getAllByRole('row')).toHaveLength(2));
    expect(asked.at(-1)!.get('show')).toBe('changed');
  });

  it("says why a key cannot be used, in the server's words", async () => {
    useServer();
    const { user } = renderPage();
    await user.click(await screen.findByRole('tab', { name: 'Compare' }));
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Compare with…' }), 'ds-old');
    await waitFor(() => expect(within(screen.getByRole('combobox', { name: 'Key column…' })).getAllByRole('option')).toHaveLength(4));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Key column…' }), '_id');
    expect(await screen.findByRole('alert')).toHaveTextContent('Column “_id” does not identify each record: 2 of its values are repeated or empty.');
  });

  it('says when the step has no other output, in Chinese too', async () => {
    useServer([]);
    const { user } = renderPage('/cn/datasets/ds-new');
    await user.click(await screen.findByRole('tab', { name: '对比' }));
    expect(await screen.findByText('这个步骤还没有其他可对比的输出。')).toBeInTheDocument();
  });
});
