import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { datasetsApi, type DatasetRecord, type RecordsFilter, type RecordsSort } from './datasetsApi';

export const PAGE_SIZE = 200;
/** Pages kept at once (40 × 200 rows): scrolling a million rows never holds more than this. */
export const MAX_CACHED_PAGES = 40;
/** A page that failed is not asked again for this long, however the grid scrolls over it (one notice, not one per row). */
const RETRY_AFTER_MS = 10_000;

interface State {
  /** Matching records, once the first page of this query has answered. */
  total: number | null;
  failed: boolean;
  /** Bumped whenever a page arrives, so the grid re-reads `rowAt`. */
  version: number;
}

/**
 * Server-paged records for a virtual grid: `ensureRows(first, last)` fetches the pages covering
 * those rows (once each), `rowAt(i)` answers a row when its page is here. Pages live in an LRU of
 * MAX_CACHED_PAGES; a new sort or filter starts over. Failures reach the notices through the
 * api slice's error middleware like any other call.
 */
export function useRecordPages(datasetId: string, sort: RecordsSort | null, filters: RecordsFilter[]) {
  const dispatch = useAppDispatch();
  const key = JSON.stringify([datasetId, sort, filters]);
  const pages = useRef(new Map<number, DatasetRecord[]>());
  const pending = useRef(new Set<number>());
  const failedAt = useRef(new Map<number, number>());
  const currentKey = useRef(key);
  const [state, setState] = useState<State>({ total: null, failed: false, version: 0 });

  const fetchPage = useCallback(
    async (page: number) => {
      if (pages.current.has(page) || pending.current.has(page)) return;
      if (Date.now() - (failedAt.current.get(page) ?? -Infinity) < RETRY_AFTER_MS) return;
      pending.current.add(page);
      const askedFor = key;
      const request = dispatch(datasetsApi.endpoints.getRecordsPage.initiate({ datasetId, page, pageSize: PAGE_SIZE, sort, filters }, { subscribe: false }));
      const result = await request;
      if (currentKey.current !== askedFor) return;
      pending.current.delete(page);
      if (!result.data) {
        failedAt.current.set(page, Date.now());
        setState((s) => ({ ...s, failed: true }));
        return;
      }
      failedAt.current.delete(page);
      pages.current.set(page, result.data.items);
      while (pages.current.size > MAX_CACHED_PAGES) pages.current.delete(pages.current.keys().next().value!);
      const total = result.data.total;
      setState((s) => ({ total, failed: false, version: s.version + 1 }));
    },
    // `key` stands for sort and filters by value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [dispatch, key],
  );

  useEffect(() => {
    currentKey.current = key;
    pages.current = new Map();
    pending.current = new Set();
    failedAt.current = new Map();
    setState({ total: null, failed: false, version: 0 });
    void fetchPage(1);
  }, [key, fetchPage]);

  const ensureRows = useCallback(
    (first: number, last: number) => {
      for (let page = Math.floor(first / PAGE_SIZE) + 1; page <= Math.floor(last / PAGE_SIZE) + 1; page++) void fetchPage(page);
    },
    [fetchPage],
  );

  const rowAt = useCallback((index: number): DatasetRecord | undefined => {
    const page = Math.floor(index / PAGE_SIZE) + 1;
    const rows = pages.current.get(page);
    if (!rows) return undefined;
    // Touched pages move to the back of the LRU.
    pages.current.delete(page);
    pages.current.set(page, rows);
    return rows[index % PAGE_SIZE];
  }, []);

  const retry = useCallback(() => {
    failedAt.current.delete(1);
    setState((s) => ({ ...s, failed: false }));
    void fetchPage(1);
  }, [fetchPage]);

  return { total: state.total, failed: state.failed, version: state.version, ensureRows, rowAt, retry, cachedPages: () => pages.current.size };
}
