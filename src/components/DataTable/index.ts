export { DataTable, type DataTableColumn, type DataTableProps, type DataTableSelection, type DataTableSort } from './DataTable';
export { EmptyListState, type EmptyListStateProps } from './EmptyListState';
export { PagedList, type PagedListProps } from './PagedList';
export { hasPages, Pager, PagerIfNeeded, type Pagination } from './Pager';
export { SelectBox, type SelectBoxProps } from './SelectBox';
