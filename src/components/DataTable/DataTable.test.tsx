import { Button } from '@chakra-ui/react';
import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { renderWithProviders } from '../../test/renderWithProviders';
import { DataTable, type DataTableColumn } from './DataTable';
import { EmptyListState } from './EmptyListState';

interface Fruit {
  id: string;
  name: string;
  kilos: number;
}

const fruits: Fruit[] = Array.from({ length: 25 }, (_, i) => ({ id: `f-${i + 1}`, name: `Fruit ${i + 1}`, kilos: i + 1 }));

const columns: DataTableColumn<Fruit>[] = [
  { id: 'name', header: 'Name', cell: (fruit) => fruit.name },
  { id: 'kilos', header: 'Kilos', cell: (fruit) => fruit.kilos, align: 'end' },
];

const PAGE_SIZE = 10;

/** A page of a paged list, as the list pages hold it: the page in state, rows sliced from the answer. */
function Fruits({ rows = fruits, isLoading = false, onAdd }: { rows?: Fruit[]; isLoading?: boolean; onAdd?: () => void }) {
  const [page, setPage] = useState(1);
  return (
    <DataTable
      label="Fruits"
      columns={columns}
      rows={isLoading ? undefined : rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)}
      rowKey={(fruit) => fruit.id}
      rowLabel={(fruit) => fruit.name}
      isLoading={isLoading}
      loading={<p>Loading fruits</p>}
      empty={<EmptyListState title="No fruit yet" action={onAdd && <Button onClick={onAdd}>Add fruit</Button>} />}
      pagination={{ page, pageSize: PAGE_SIZE, total: rows.length, onChange: setPage }}
    />
  );
}

describe('DataTable', () => {
  it('shows its loading state, and no table, while the first page loads', () => {
    renderWithProviders(<Fruits isLoading />);
    expect(screen.getByText('Loading fruits')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the empty state with its action instead of an empty table', async () => {
    const onAdd = jest.fn();
    const { user } = renderWithProviders(<Fruits rows={[]} onAdd={onAdd} />);
    expect(screen.getByText('No fruit yet')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add fruit' }));
    expect(onAdd).toHaveBeenCalledTimes(1);
  });

  it('draws a header per column and a named row per item, cells aligned as their column', () => {
    renderWithProviders(<Fruits rows={fruits.slice(0, 2)} />);
    const table = screen.getByRole('table', { name: 'Fruits' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Kilos']);
    const row = within(table).getByRole('row', { name: 'Fruit 2' });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['Fruit 2', '2']);
    // One page only: no pager.
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('pages with Previous and Next, which are disabled at either end', async () => {
    const { user } = renderWithProviders(<Fruits />);
    const pager = screen.getByRole('navigation');
    const previous = within(pager).getByRole('button', { name: /previous/i });
    const next = within(pager).getByRole('button', { name: /next/i });
    expect(previous).toBeDisabled();
    expect(screen.getByRole('row', { name: 'Fruit 1' })).toBeInTheDocument();

    await user.click(next);
    expect(within(pager).getByText(/2\D+3/)).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Fruit 11' })).toBeInTheDocument();
    expect(screen.queryByRole('row', { name: 'Fruit 1' })).not.toBeInTheDocument();

    await user.click(next);
    expect(screen.getAllByRole('row')).toHaveLength(1 + 5);
    expect(next).toBeDisabled();

    await user.click(previous);
    expect(screen.getByRole('row', { name: 'Fruit 20' })).toBeInTheDocument();
  });
});

/** The fruits with checkboxes and sortable headers, the page holding selection and sort as the files page does. */
function SelectableFruits({ onToggle }: { onToggle?: (name: string, index: number, shiftKey: boolean) => void }) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [sort, setSort] = useState<{ by: string; order: 'asc' | 'desc' }>({ by: 'name', order: 'asc' });
  const rows = fruits.slice(0, 3);
  const toggle = (fruit: Fruit) =>
    setSelected((current) => new Set(current.has(fruit.id) ? [...current].filter((id) => id !== fruit.id) : [...current, fruit.id]));
  return (
    <DataTable
      label="Fruits"
      columns={columns.map((column) => ({ ...column, sortable: true }))}
      rows={rows}
      rowKey={(fruit) => fruit.id}
      empty={null}
      selection={{
        isSelected: (fruit) => selected.has(fruit.id),
        onToggle: (fruit, index, shiftKey) => {
          onToggle?.(fruit.name, index, shiftKey);
          toggle(fruit);
        },
        onToggleAll: (select) => setSelected(new Set(select ? rows.map((fruit) => fruit.id) : [])),
        allLabel: 'Select all',
        rowLabel: (fruit) => `Select ${fruit.name}`,
      }}
      sort={{ ...sort, onSort: (by) => setSort((current) => ({ by, order: current.by === by && current.order === 'asc' ? 'desc' : 'asc' })) }}
    />
  );
}

describe('DataTable selection and sorting', () => {
  it('puts a named checkbox on every row and "select all" in the header, which shows a partial selection', async () => {
    const onToggle = jest.fn();
    const { user } = renderWithProviders(<SelectableFruits onToggle={onToggle} />);
    const all = screen.getByRole('checkbox', { name: 'Select all' });
    expect(within(screen.getAllByRole('columnheader')[0]).getByRole('checkbox')).toBe(all);

    await user.click(screen.getByRole('checkbox', { name: 'Select Fruit 2' }));
    expect(onToggle).toHaveBeenLastCalledWith('Fruit 2', 1, false);
    expect(screen.getByRole('checkbox', { name: 'Select Fruit 2' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Fruit 2' }).closest('tr')).toHaveAttribute('data-selected');
    expect(all).not.toBeChecked();
    expect(all).toHaveProperty('indeterminate', true);

    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('checkbox', { name: 'Select Fruit 3' }));
    await user.keyboard('{/Shift}');
    expect(onToggle).toHaveBeenLastCalledWith('Fruit 3', 2, true);

    await user.click(all);
    expect(screen.getAllByRole('checkbox', { name: /^Select Fruit/ }).every((box) => (box as HTMLInputElement).checked)).toBe(true);
    expect(all).toBeChecked();
    expect(all).toHaveProperty('indeterminate', false);
    await user.click(all);
    expect(screen.queryAllByRole('checkbox', { checked: true })).toHaveLength(0);
  });

  it('makes sortable headers buttons that say how the rows are sorted', async () => {
    const { user } = renderWithProviders(<SelectableFruits />);
    const header = (name: string) => screen.getByRole('columnheader', { name });
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Kilos')).toHaveAttribute('aria-sort', 'none');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(header('Name')).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByRole('button', { name: 'Kilos' }));
    expect(header('Kilos')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Name')).toHaveAttribute('aria-sort', 'none');
  });

  it('keeps the pager under an empty page past the end, so there is a way back', async () => {
    const onChange = jest.fn();
    const { user } = renderWithProviders(
      <DataTable
        label="Fruits"
        columns={columns}
        rows={[]}
        rowKey={(fruit) => fruit.id}
        empty={<p>Nothing here</p>}
        appearance="flush"
        pagination={{ page: 3, pageSize: PAGE_SIZE, total: 15, onChange }}
      />,
    );
    expect(screen.getByText('Nothing here')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await user.click(within(screen.getByRole('navigation')).getByRole('button', { name: /previous/i }));
    expect(onChange).toHaveBeenCalledWith(2);
  });
});
