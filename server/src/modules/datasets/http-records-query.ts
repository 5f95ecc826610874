import type { RecordsFilter, RecordsQuery, RecordsSort } from '../../engine/datasets/records-query';
import { invalid } from '../../lib/errors';
import type { ExportView } from '../../engine/datasets';
import type { DownloadQuery, RecordsQueryIn } from './datasets.schemas';

/*
 * The records query string as the engine's RecordsQuery. Only the syntax is checked here (the
 * schema has already bounded every length); columns, operators and values are judged by the engine
 * against the dataset's own columns, each problem at its place (`["query", "filters", 0, "value"]`).
 */

const list = (text: string | undefined) => (text ? text.split(',').filter((part) => part !== '') : []);

/** `price:desc` → price, desc; `name` → name, asc. A name holding `:` takes an explicit direction. */
function sortKey(part: string): RecordsSort {
  const at = part.lastIndexOf(':');
  if (at < 0) return { column: part, direction: 'asc' };
  // An unknown direction goes through as given, so the engine names it at ["query", "sort", i, "direction"].
  return { column: part.slice(0, at), direction: part.slice(at + 1).toLowerCase() as RecordsSort['direction'] };
}

const plain = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function filtersOf(text: string | undefined): RecordsFilter[] {
  if (text === undefined || text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('server.datasets.badFilters', ['query', 'filters']);
  }
  if (!Array.isArray(parsed)) throw invalid('server.datasets.badFilters', ['query', 'filters']);
  // Shapes only; the engine checks counts, columns, operators and values (and says where).
  return parsed.map((item: unknown, i) => {
    if (!plain(item)) throw invalid('server.datasets.badFilters', ['query', 'filters', i]);
    return { column: item.column, op: item.op, value: item.value } as RecordsFilter;
  });
}

export function recordsQueryOf(query: RecordsQueryIn): RecordsQuery {
  return {
    page: query.page,
    pageSize: query.page_size,
    sort: list(query.sort).map(sortKey),
    columns: list(query.columns),
    filters: filtersOf(query.filters),
  };
}

/** A download's view (the grid's sort, filters and columns, and whether `_id` goes too) as the engine's ExportView. */
export function exportViewOf(query: DownloadQuery): ExportView {
  return { sort: list(query.sort).map(sortKey), columns: list(query.columns), filters: filtersOf(query.filters), includeId: query.include_id ?? true };
}
