import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router-dom';
import type { DatasetOut } from '../../../server/src/modules/datasets/datasets.schemas';
import { setAccessToken } from '../../services/tokenStorage';
import { api } from '../../test/handlers';
import { renderApp, renderWithProviders, signedInState } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { DatasetPage } from './DatasetPage';
import { MAX_CACHED_PAGES, PAGE_SIZE } from './useRecordPages';
import { ROW_HEIGHT } from './RecordsGrid';
import { MAX_SCROLL_HEIGHT } from './windowing';

const MILLION = 1_000_000;
const columns = [
  { name: '_id', type: 'VARCHAR' },
  { name: 'name', type: 'VARCHAR' },
  { name: 'price', type: 'DOUBLE' },
  { name: 'tags', type: 'VARCHAR[]' },
];
const dataset: DatasetOut = {
  id: 'ds-1',
  name: 'Orders',
  columns,
  row_count: MILLION,
  bytes: 5 * 1024 * 1024,
  step_run_id: 'sr-1',
  run_id: 'r-1',
  workflow_id: 'w-1',
  step_id: 's-1',
  parents: [{ id: 'ds-0', name: 'Raw orders' }],
  created_at: '2026-03-14T10:00:00.000Z',
  expires_at: null,
};
const recordAt = (i: number) => ({ _id: `id-${i}`, name: `Row ${i}`, price: i % 7 === 0 ? null : i / 2, tags: ['a', 'b'] });

/** The records calls the grid made, as their query strings. */
let calls: URLSearchParams[];

function useDataset(total = MILLION) {
  calls = [];
  server.use(
    http.get(api('/datasets/:id'), ({ params }) =>
      params.id === 'ds-1' ? HttpResponse.json({ ...dataset, row_count: total }) : HttpResponse.json({ detail: 'Dataset not found.' }, { status: 404 }),
    ),
    http.get(api('/datasets/:id/records'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      calls.push(query);
      const page = Number(query.get('page'));
      const size = Number(query.get('page_size'));
      const matching = query.get('filters') ? 0 : total;
      const from = (page - 1) * size;
      // Descending: the last record first, enough to see which order the grid shows.
      const descending = query.get('sort')?.endsWith(':desc');
      const items = Array.from({ length: Math.max(0, Math.min(size, matching - from)) }, (_, k) => recordAt(descending ? matching - 1 - from - k : from + k));
      return HttpResponse.json({ items, total: matching, page, page_size: size, columns });
    }),
    http.get(api('/datasets/:id/record/:recordId'), ({ params }) =>
      HttpResponse.json({ _id: params.recordId, name: 'Row 3', price: null, tags: ['a', 'b'], nested: { city: 'Oslo', zip: '0150' } }),
    ),
  );
}

function renderPage(route = '/datasets/ds-1') {
  return renderWithProviders(
    <Routes>
      <Route path="/datasets/:datasetId" element={<DatasetPage />} />
      <Route path="/cn/datasets/:datasetId" element={<DatasetPage />} />
    </Routes>,
    { route, preloadedState: signedInState() },
  );
}

const grid = () => screen.getByRole('grid', { name: 'Records of “Orders”' });
const dataRows = () =>
  within(grid())
    .getAllByRole('row')
    .filter((row) => row.getAttribute('aria-rowindex') !== '1');
const pagesAsked = () => calls.map((q) => Number(q.get('page')));

const VIEWPORT = 520 - 36;
/** The scroll position that puts row `row` at the top of a million rows (compressed range, see windowing.ts). */
const topForRow = (row: number) => (row / (MILLION - VIEWPORT / ROW_HEIGHT)) * (MAX_SCROLL_HEIGHT - VIEWPORT);

function scrollTo(top: number) {
  const scroller = screen.getByTestId('records-scroller');
  Object.defineProperty(scroller, 'scrollTop', { value: top, configurable: true });
  fireEvent.scroll(scroller);
}

describe('DatasetPage', () => {
  it('shows name, size, lineage and a window of rows of a 1,000,000-row dataset', async () => {
    useDataset();
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Orders' })).toBeInTheDocument();
    expect(screen.getByText('1,000,000 rows')).toBeInTheDocument();
    expect(screen.getByText('5 MB')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Raw orders' })).toHaveAttribute('href', '/datasets/ds-0');
    expect(await screen.findByText('Row 0')).toBeInTheDocument();
    expect(screen.getByText('1,000,000 records')).toBeInTheDocument();
    // Only the rows in view (and a few either side) are in the DOM.
    expect(dataRows().length).toBeLessThan(40);
    expect(grid()).toHaveAttribute('aria-rowcount', String(MILLION + 1));
    expect(calls).toHaveLength(1);
    expect(calls[0].get('page_size')).toBe(String(PAGE_SIZE));
    // Null is marked, not blank; nested values are JSON.
    const first = dataRows()[0];
    expect(within(first).getByText('null')).toHaveAttribute('data-null');
    expect(within(first).getByText('["a","b"]')).toBeInTheDocument();
  });

  // Over Jest’s 5 s at worst: scrolls the grid through pages, each rendered in jsdom (2–4 s alone).
  it('fetches the pages that scroll into view, keeping a bounded cache', async () => {
    useDataset();
    renderPage();
    await screen.findByText('Row 0');
    scrollTo(topForRow(250));
    expect(await screen.findByText('Row 250')).toBeInTheDocument();
    expect(pagesAsked()).toEqual([1, 2]);
    // Half way down a million rows: the scroll range is compressed, the rows are those at the middle.
    const scroller = screen.getByTestId('records-scroller');
    const body = scroller.lastElementChild as HTMLElement;
    const bodyHeight = parseFloat(getComputedStyle(body).height);
    expect(bodyHeight).toBeLessThan(MILLION * ROW_HEIGHT);
    expect(bodyHeight).toBe(MAX_SCROLL_HEIGHT);
    scrollTo(topForRow(500_000));
    await waitFor(() => expect(pagesAsked()).toContain(2500));
    const shown = await within(grid()).findAllByText(/^Row 5000\d\d$/);
    expect(shown.length).toBeGreaterThan(5);
    expect(dataRows().length).toBeLessThan(40);
    // Many far jumps later, still only what was seen recently is kept and each page was asked once.
    for (let k = 1; k <= MAX_CACHED_PAGES + 5; k++) scrollTo((k * bodyHeight) / (MAX_CACHED_PAGES + 10));
    await waitFor(() => expect(new Set(pagesAsked()).size).toBe(pagesAsked().length));
  }, 15_000);

  // Over Jest’s 5 s at worst: three sorts, each re-rendering the grid in jsdom (2–3.5 s alone).
  it('sorts by a header click (asc, desc, none)', async () => {
    useDataset();
    const { user } = renderPage();
    await screen.findByText('Row 0');
    const price = screen.getByRole('columnheader', { name: /^price/ });
    await user.click(price);
    await waitFor(() => expect(calls.at(-1)?.get('sort')).toBe('price:asc'));
    expect(price).toHaveAttribute('aria-sort', 'ascending');
    await user.click(price);
    await waitFor(() => expect(calls.at(-1)?.get('sort')).toBe('price:desc'));
    await waitFor(() => expect(dataRows()[0]).toHaveTextContent('Row 999999'));
    expect(price).toHaveAttribute('aria-sort', 'descending');
    // Back to no sort: file order again (page 1 unsorted may come from RTK's short-lived cache).
    await user.click(price);
    await waitFor(() => expect(dataRows()[0]).toHaveTextContent('Row 0'));
    expect(price).toHaveAttribute('aria-sort', 'none');
  }, 15_000);

  // Over Jest’s 5 s: a dozen choices and keystrokes, each re-rendering the grid in jsdom (5 s alone).
  it('sends filters as JSON; chips remove them', async () => {
    useDataset();
    const { user } = renderPage();
    await screen.findByText('Row 0');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter column' }), 'price');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter operator' }), '>=');
    const value = screen.getByRole('spinbutton', { name: 'Filter value' });
    await user.type(value, '10.5');
    await user.click(screen.getByRole('button', { name: 'Add filter' }));
    await waitFor(() => expect(JSON.parse(calls.at(-1)?.get('filters') ?? '[]')).toEqual([{ column: 'price', op: '>=', value: 10.5 }]));
    expect(await screen.findByText('No record matches these filters.')).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter column' }), 'name');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter operator' }), 'is_null');
    expect(screen.queryByRole('textbox', { name: 'Filter value' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add filter' }));
    await waitFor(() =>
      expect(JSON.parse(calls.at(-1)?.get('filters') ?? '[]')).toEqual([
        { column: 'price', op: '>=', value: 10.5 },
        { column: 'name', op: 'is_null' },
      ]),
    );

    await user.click(screen.getByRole('button', { name: 'Remove filter “price at least 10.5”' }));
    await waitFor(() => expect(JSON.parse(calls.at(-1)?.get('filters') ?? '[]')).toEqual([{ column: 'name', op: 'is_null' }]));
    await user.click(screen.getByRole('button', { name: 'Remove filter “name is empty (null)”' }));
    expect(await screen.findByText('Row 0')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Active filters' })).not.toBeInTheDocument();
  }, 20_000);

  // Over Jest’s 5 s at worst: the grid re-rendered at every step of a drag (1.5–2 s alone).
  it('resizes a column by dragging or with the arrow keys, header and cells alike', async () => {
    useDataset();
    const { user } = renderPage();
    await screen.findByText('Row 0');
    const handle = screen.getByRole('separator', { name: 'Width of column “price”' });
    expect(handle).toHaveAttribute('aria-valuenow', '130');
    fireEvent.pointerDown(handle, { clientX: 500 });
    fireEvent.pointerMove(window, { clientX: 580 });
    fireEvent.pointerUp(window);
    expect(handle).toHaveAttribute('aria-valuenow', '210');
    handle.focus();
    await user.keyboard('{ArrowLeft}');
    expect(handle).toHaveAttribute('aria-valuenow', '190');
    const priceCell = within(dataRows()[1]).getAllByRole('gridcell')[2];
    expect(priceCell).toHaveStyle({ width: '190px' });
    // Resizing is not sorting.
    expect(screen.getByRole('columnheader', { name: /price/ })).toHaveAttribute('aria-sort', 'none');
  }, 15_000);

  it('opens a record by its id in a drawer, every field, nested values as JSON', async () => {
    useDataset();
    const { user } = renderPage();
    await user.click(await screen.findByText('Row 3'));
    const drawer = await screen.findByRole('dialog', { name: 'Record id-3' });
    expect(within(drawer).getByText('Oslo', { exact: false })).toHaveTextContent('"city": "Oslo"');
    expect(within(drawer).getByText('null')).toHaveAttribute('data-null');
    expect(within(drawer).getByText('nested')).toBeInTheDocument();
  });

  it('shows the schema, an empty dataset and a missing one', async () => {
    useDataset(0);
    const { user } = renderPage();
    expect(await screen.findByText('This dataset has no records.')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Schema' }));
    const schema = screen.getByRole('table', { name: 'Columns and their types' });
    expect(within(schema).getByText('VARCHAR[]')).toBeInTheDocument();
  });

  // Over Jest’s 5 s at worst: the grid rendered, then two downloads, the second through a notice (over 5 s once in CI on a slow idle 2-core machine).
  it('downloads CSV with the bearer token and saves it under the dataset name; a failure is a notice', async () => {
    useDataset();
    setAccessToken('tok-dl');
    const seen: { auth: string | null; format: string | null }[] = [];
    server.use(
      http.get(api('/datasets/:id/download'), ({ request }) => {
        const format = new URL(request.url).searchParams.get('format');
        seen.push({ auth: request.headers.get('Authorization'), format });
        if (format === 'parquet') return HttpResponse.json({ detail: 'Dataset not found.' }, { status: 404 });
        return new HttpResponse('_id,name\nid-0,Row 0\n', { headers: { 'content-type': 'text/csv' } });
      }),
    );
    const saved: string[] = [];
    const createObjectURL = jest.fn(() => 'blob:orders');
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    try {
      const { user } = renderPage();
      await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
      await waitFor(() => expect(saved).toEqual(['Orders.csv']));
      expect(seen).toEqual([{ auth: 'Bearer tok-dl', format: 'csv' }]);
      await user.click(screen.getByRole('button', { name: 'Download Parquet' }));
      expect(await screen.findByText('Dataset not found.')).toBeInTheDocument();
      expect(saved).toEqual(['Orders.csv']);
    } finally {
      click.mockRestore();
      localStorage.clear();
    }
  }, 15_000);

  // Over Jest's 5 s at worst, as the download test above: the grid rendered, a sort re-rendering it, then two downloads.
  it('downloads what the grid shows (its sort), with record ids only when asked, and links to the step that made it', async () => {
    useDataset();
    const asked: URLSearchParams[] = [];
    server.use(
      http.get(api('/datasets/:id/download'), ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return new HttpResponse('name\nRow 0\n', { headers: { 'content-type': 'text/csv' } });
      }),
    );
    Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:orders'), revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      const { user } = renderPage();
      expect(await screen.findByRole('link', { name: 'Open the step that made it' })).toHaveAttribute('href', '/workflows/w-1?step=s-1&run=r-1');
      await user.click(screen.getByRole('button', { name: 'Download CSV' }));
      await waitFor(() => expect(asked).toHaveLength(1));
      expect(Object.fromEntries(asked[0])).toEqual({ format: 'csv', include_id: 'false' });
      expect(screen.queryByTestId('download-as-shown')).not.toBeInTheDocument();

      await user.click(screen.getByRole('columnheader', { name: /^price/ }));
      expect(await screen.findByTestId('download-as-shown')).toHaveTextContent('Downloads the records as shown: filtered and sorted.');
      await user.click(screen.getByRole('checkbox', { name: 'Include record ids' }));
      await user.click(screen.getByRole('button', { name: 'Download CSV' }));
      await waitFor(() => expect(asked).toHaveLength(2));
      expect(Object.fromEntries(asked[1])).toEqual({ format: 'csv', sort: 'price:asc', include_id: 'true' });
    } finally {
      click.mockRestore();
    }
  }, 15_000);

  it('reports a failed page as a notice, once however the grid scrolls, and offers to try again', async () => {
    useDataset();
    let failing = true;
    server.use(
      http.get(api('/datasets/:id/records'), ({ request }) => {
        calls.push(new URL(request.url).searchParams);
        if (failing) return HttpResponse.json({ detail: 'The dataset is being rewritten.' }, { status: 503 });
        return HttpResponse.json({ items: [recordAt(0)], total: 1, page: 1, page_size: PAGE_SIZE, columns });
      }),
    );
    const { user } = renderPage();
    expect(await screen.findByText('The dataset is being rewritten.')).toBeInTheDocument();
    expect(await screen.findByText('The records could not be loaded.')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Row 0')).toBeInTheDocument();
    expect(screen.getByText('1 record')).toBeInTheDocument();
  });

  it('says a missing dataset is not there', async () => {
    useDataset();
    renderPage('/datasets/nope');
    expect(await screen.findByText('This dataset does not exist, or is not yours.')).toBeInTheDocument();
  });

  it('is a signed-in route of the app, loaded on demand', async () => {
    useDataset();
    localStorage.setItem('accessToken', 'good');
    try {
      renderApp({ route: '/datasets/ds-1' });
      expect(await screen.findByRole('heading', { name: 'Orders', level: 1 })).toBeInTheDocument();
      expect(screen.getByRole('tab', { name: 'Schema' })).toBeInTheDocument();
    } finally {
      localStorage.clear();
    }
  });

  it('speaks Chinese under /cn', async () => {
    useDataset();
    renderPage('/cn/datasets/ds-1');
    expect(await screen.findByText('1,000,000 行')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '记录' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /下载 CSV/ })).toBeInTheDocument();
    expect(await screen.findByRole('grid', { name: '“Orders”的记录' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '添加筛选' })).toBeInTheDocument();
  });
});
