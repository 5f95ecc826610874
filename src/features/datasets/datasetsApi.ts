import type {
  ColumnValuesOut,
  CompareOut,
  DatasetListOut,
  DatasetOut,
  RecordsPageOut,
  SiblingsOut,
} from '../../../server/src/modules/datasets/datasets.schemas';
import type { FilterOp, RecordsFilter, RecordsSort } from '../../../server/src/engine/datasets/records-limits';
import { baseApi } from '../../services/baseApi';
import { missingAsNull } from '../files/filesApi';

// Spec area "Datasets": one dataset, pages of its records, one record. Snapshots are immutable,
// so nothing here is ever invalidated; a run writes a new dataset with a new id.

export type { CompareOut, DatasetListOut, DatasetOut, RecordsPageOut, SiblingsOut };
export type { FilterOp, RecordsFilter, RecordsSort };
export type DatasetSummary = DatasetListOut['items'][number];
export type CompareShow = 'all' | 'added' | 'removed' | 'changed';
export interface CompareArgs {
  datasetId: string;
  withId: string;
  key: string;
  page: number;
  pageSize: number;
  show: CompareShow;
}
export type DatasetRecord = Record<string, unknown>;
export type DatasetColumn = DatasetOut['columns'][number];

export interface StepDatasetArgs {
  stepId: string;
  side: 'input' | 'output';
  /** Which input (join and union read several); 0 when absent. */
  input?: number;
}

export interface RecordsPageArgs {
  datasetId: string;
  page: number;
  pageSize: number;
  sort: RecordsSort | null;
  filters: RecordsFilter[];
}

/** The records call's query string as the server reads it (datasets.schemas.ts, RecordsQueryIn). */
export function recordsQueryString({ page, pageSize, sort, filters }: Omit<RecordsPageArgs, 'datasetId'>): string {
  const query = new URLSearchParams({ page: String(page), page_size: String(pageSize) });
  if (sort) query.set('sort', `${sort.column}:${sort.direction}`);
  if (filters.length) query.set('filters', JSON.stringify(filters));
  return query.toString();
}

export const datasetsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getDataset: build.query<DatasetOut, string>({
      query: (id) => `/datasets/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Dataset', id }],
    }),
    /** The user's unexpired datasets, newest first; `q` narrows by name. A new run's datasets show on the next opening (not cached for long). */
    listDatasets: build.query<DatasetListOut, { page: number; pageSize: number; q: string }>({
      query: ({ page, pageSize, q }) => ({ url: '/datasets/', params: { page, page_size: pageSize, ...(q ? { q } : {}) } }),
      keepUnusedDataFor: 0,
    }),
    /** A step's dataset param names a dataset: gone (404) is an answer, null, not a failure to report. */
    lookupDataset: build.query<DatasetOut | null, string>({
      queryFn: async (id, _api, _extra, baseQuery) =>
        missingAsNull<DatasetOut>(await baseQuery({ url: `/datasets/${encodeURIComponent(id)}`, params: { include_lineage: false } })),
      providesTags: (_r, _e, id) => [{ type: 'Dataset', id }],
    }),
    /**
     * A step's newest output, or what one of its inputs read (the input step's newest output),
     * for the editor's data panel: none yet (404) is an answer, null. Tagged 'Dataset', so a run
     * ending (useLiveRun) asks again.
     */
    getStepDataset: build.query<DatasetOut | null, StepDatasetArgs>({
      queryFn: async ({ stepId, side, input = 0 }, _api, _extra, baseQuery) =>
        missingAsNull<DatasetOut>(
          await baseQuery({
            url: `/workflow-steps/${encodeURIComponent(stepId)}/${side}-dataset`,
            params: side === 'input' ? { input, include_lineage: false } : { include_lineage: false },
          }),
        ),
      providesTags: (_r, _e, { stepId, side, input = 0 }) => [{ type: 'Dataset', id: `STEP:${stepId}:${side}:${input}` }],
    }),
    /** A column's most frequent values with their counts (a pivot's new columns are picked from them). */
    getColumnValues: build.query<ColumnValuesOut, { datasetId: string; column: string; limit?: number }>({
      query: ({ datasetId, column, limit = 100 }) => ({ url: `/datasets/${encodeURIComponent(datasetId)}/values`, params: { column, limit } }),
    }),
    getRecordsPage: build.query<RecordsPageOut, RecordsPageArgs>({
      query: ({ datasetId, ...rest }) => `/datasets/${encodeURIComponent(datasetId)}/records?${recordsQueryString(rest)}`,
      // The grid keeps its own bounded cache of pages (useRecordPages); RTK's copy goes at once.
      keepUnusedDataFor: 0,
    }),
    getRecord: build.query<DatasetRecord, { datasetId: string; recordId: string }>({
      query: ({ datasetId, recordId }) => `/datasets/${encodeURIComponent(datasetId)}/record/${encodeURIComponent(recordId)}`,
      providesTags: (_r, _e, { recordId }) => [{ type: 'Record', id: recordId }],
    }),
    /** Other outputs of the step that made this dataset, newest first: what it can be compared with. */
    getSiblings: build.query<SiblingsOut, string>({
      query: (id) => `/datasets/${encodeURIComponent(id)}/siblings`,
    }),
    compareDatasets: build.query<CompareOut, CompareArgs>({
      query: ({ datasetId, withId, key, page, pageSize, show }) =>
        `/datasets/${encodeURIComponent(datasetId)}/compare?${new URLSearchParams({ with: withId, key, page: String(page), page_size: String(pageSize), show }).toString()}`,
    }),
  }),
});

export const {
  useListDatasetsQuery,
  useLookupDatasetQuery,
  useGetDatasetQuery,
  useGetStepDatasetQuery,
  useGetRecordsPageQuery,
  useGetColumnValuesQuery,
  useGetRecordQuery,
  useGetSiblingsQuery,
  useCompareDatasetsQuery,
} = datasetsApi;
