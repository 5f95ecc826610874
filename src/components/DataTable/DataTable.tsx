import { chakra, Table, type TableCellProps, type TableColumnHeaderProps, type TableRowProps } from '@chakra-ui/react';
import type { Key, ReactNode } from 'react';
import { LuArrowDown, LuArrowUp } from 'react-icons/lu';
import { PagedList } from './PagedList';
import type { Pagination } from './Pager';
import { SelectBox } from './SelectBox';

export interface DataTableColumn<Row> {
  /** Names the column among its siblings (React key), and is what `sort` speaks of. */
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Numbers and actions line up at the end, header and cells alike. */
  align?: 'start' | 'end';
  width?: TableCellProps['width'];
  /** Header and cells alike: `{ base: 'none', md: 'table-cell' }` leaves the column out of small screens. */
  display?: TableCellProps['display'];
  /** Anything else a cell of this column needs (no wrapping, a font, a width cap…). */
  cellProps?: TableCellProps;
  /** The header is a button that asks `sort.onSort` for this column (needs `sort`). */
  sortable?: boolean;
}

/** How the rows are sorted, where the page lets people sort by a column's header. */
export interface DataTableSort {
  /** The `id` of the column the rows are sorted by. */
  by: string;
  order: 'asc' | 'desc';
  /** A sortable column's header was clicked (the page decides: another column, or the order flipped). */
  onSort: (columnId: string) => void;
}

/** A checkbox at the start of every row and "select all" in the header; the page holds the selection. */
export interface DataTableSelection<Row> {
  isSelected: (row: Row) => boolean;
  /** A row's box was clicked; `index` is the row's among `rows`, `shiftKey` whether Shift was held (ranges). */
  onToggle: (row: Row, index: number, shiftKey: boolean) => void;
  /** The header's box was clicked: select every row (true) or none. */
  onToggleAll: (select: boolean) => void;
  /** Accessible names of the header's box and of each row's ("Select all", "Select a.csv"). */
  allLabel: string;
  rowLabel: (row: Row) => string;
}

export interface DataTableProps<Row> {
  /** The table's accessible name (lists are found by it, in tests and by screen readers). */
  label: string;
  columns: DataTableColumn<Row>[];
  /** Undefined until the first answer: the table is then drawn without rows unless `isLoading`. */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => Key;
  /** A row's accessible name, where the page lets people (and tests) find a row by it. */
  rowLabel?: (row: Row) => string;
  /** Anything else a row needs (a `data-testid` for the e2e journeys, a colour…). */
  rowProps?: (row: Row) => TableRowProps & { [data: `data-${string}`]: string | undefined };
  selection?: DataTableSelection<Row>;
  sort?: DataTableSort;
  /** Rows light up under the pointer (their cells hold links and buttons to act on them). */
  interactive?: boolean;
  isLoading?: boolean;
  loading?: ReactNode;
  isFetching?: boolean;
  /** Shown instead of the table when `rows` is empty (an EmptyListState, usually). */
  empty: ReactNode;
  pagination?: Pagination;
  /** `panel`: a card on the page's background; `subtle`: a bordered table with a tinted header;
   *  `flush`: no frame, a tinted header, the pager in a bar (a table filling a card of its own). */
  appearance?: 'panel' | 'subtle' | 'flush';
}

const frames = {
  panel: { scroll: { borderWidth: '1px', borderColor: 'border.muted', rounded: 'xl', bg: 'bg.panel' }, header: {} },
  subtle: { scroll: { borderWidth: '1px', rounded: 'lg' }, header: { bg: 'bg.subtle' } },
  flush: { scroll: {}, header: { bg: 'bg.subtle' } },
} as const;

/** The selection's column: narrow, a little room from the table's start. */
const selectCell = { w: '10', ps: '4' } as const;

function ColumnHeader<Row>({ column, sort }: { column: DataTableColumn<Row>; sort?: DataTableSort }) {
  const props: TableColumnHeaderProps = { textAlign: column.align, width: column.width, display: column.display };
  if (!column.sortable || !sort) return <Table.ColumnHeader {...props}>{column.header}</Table.ColumnHeader>;
  const active = sort.by === column.id;
  return (
    <Table.ColumnHeader aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'} {...props}>
      <chakra.button
        type="button"
        display="inline-flex"
        alignItems="center"
        gap="1"
        fontWeight="semibold"
        color={active ? 'fg' : 'fg.muted'}
        onClick={() => sort.onSort(column.id)}
      >
        {column.header}
        {active && (sort.order === 'asc' ? <LuArrowUp aria-hidden /> : <LuArrowDown aria-hidden />)}
      </chakra.button>
    </Table.ColumnHeader>
  );
}

/**
 * The list pages' table: columns (header, cell, alignment, sorting), rows (optionally selectable),
 * loading, empty, dimmed while the next page loads, and the pager when there is more than one page.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const {
    label,
    columns,
    rows = [],
    rowKey,
    rowLabel,
    rowProps,
    selection,
    sort,
    interactive,
    isLoading,
    loading,
    isFetching,
    empty,
    pagination,
    appearance = 'panel',
  } = props;
  const frame = frames[appearance];
  const selectedCount = selection ? rows.filter(selection.isSelected).length : 0;
  const allSelected = rows.length > 0 && selectedCount === rows.length;
  return (
    <PagedList
      isLoading={isLoading}
      loading={loading}
      isEmpty={props.rows?.length === 0}
      empty={empty}
      isFetching={isFetching}
      pagination={pagination}
      flush={appearance === 'flush'}
    >
      <Table.ScrollArea {...frame.scroll}>
        <Table.Root size="sm" interactive={interactive} aria-label={label}>
          <Table.Header>
            <Table.Row {...frame.header}>
              {selection && (
                <Table.ColumnHeader {...selectCell}>
                  <SelectBox
                    checked={allSelected}
                    indeterminate={selectedCount > 0 && !allSelected}
                    label={selection.allLabel}
                    onChange={() => selection.onToggleAll(!allSelected)}
                  />
                </Table.ColumnHeader>
              )}
              {columns.map((column) => (
                <ColumnHeader key={column.id} column={column} sort={sort} />
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row, index) => {
              const selected = selection?.isSelected(row) ?? false;
              return (
                <Table.Row
                  key={rowKey(row)}
                  aria-label={rowLabel?.(row)}
                  data-selected={selected || undefined}
                  bg={selected ? 'brand.subtle' : undefined}
                  {...rowProps?.(row)}
                >
                  {selection && (
                    <Table.Cell ps={selectCell.ps}>
                      <SelectBox checked={selected} label={selection.rowLabel(row)} onChange={(shiftKey) => selection.onToggle(row, index, shiftKey)} />
                    </Table.Cell>
                  )}
                  {columns.map((column) => (
                    <Table.Cell key={column.id} textAlign={column.align} display={column.display} {...column.cellProps}>
                      {column.cell(row)}
                    </Table.Cell>
                  ))}
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </PagedList>
  );
}
