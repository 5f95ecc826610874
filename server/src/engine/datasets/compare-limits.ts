// Apart from compare.ts so the schemas (read by the web app too) import no DuckDB or Node module.
export const COMPARE_SHOW = ['added', 'removed', 'changed', 'all'] as const;
export type CompareShow = (typeof COMPARE_SHOW)[number];

/** Bounds on one comparison page: a page lists at most 200 differing records. */
export const COMPARE_LIMITS = { defaultPageSize: 50, maxPageSize: 200, maxPage: 1_000_000 } as const;
