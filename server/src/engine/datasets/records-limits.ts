// Apart from records-query.ts so the schemas and the web app's types import no DuckDB or Node module.

export const FILTER_OPS = ['=', '!=', '<', '<=', '>', '>=', 'contains', 'starts_with', 'is_null', 'is_not_null', 'in'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export interface RecordsFilter {
  column: string;
  op: FilterOp;
  /** Absent for is_null / is_not_null; an array for `in`; else one value of the column's type. */
  value?: unknown;
}

export interface RecordsSort {
  column: string;
  direction: 'asc' | 'desc';
}

/** Bounds on one records query: every part a caller sends is limited before any SQL is built. */
export const RECORDS_LIMITS = {
  defaultPageSize: 50,
  maxPageSize: 1000,
  /** page × pageSize stays far below 2^53. */
  maxPage: 10_000_000,
  maxFilters: 20,
  maxSortKeys: 5,
  maxInValues: 100,
  /** Characters of one filter value. */
  maxValueLength: 1000,
  /** Entries of the column selection (each column counts once however often it is named). */
  maxColumns: 2000,
} as const;
