import { Type, type Static } from '@sinclair/typebox';
import { COMPARE_LIMITS, COMPARE_SHOW } from '../../engine/datasets/compare-limits';
import { EXPORT_FORMATS } from '../../engine/datasets/export-formats';
import { RECORDS_LIMITS } from '../../engine/datasets/records-limits';
import { Id, Page, pageFields } from '../../http/common.schemas';

// Shapes of the Datasets calls (spec §6). The records query string is designed for a data grid:
// `sort` and `columns` are short comma lists; filters are one JSON array, which a grid's filter
// model becomes with one JSON.stringify and which keeps values typed (numbers, booleans, lists).

export const DatasetParams = Type.Object({ datasetId: Id });
export const RecordParams = Type.Object({ datasetId: Id, recordId: Type.String({ description: "The record's `_id`", minLength: 1, maxLength: 200 }) });

export const DatasetQuery = Type.Object(
  {
    include_lineage: Type.Boolean({ default: true, description: 'Answer `parents` (the datasets this one was made from); false skips that look-up.' }),
  },
  { additionalProperties: false },
);
export type DatasetQuery = Static<typeof DatasetQuery>;

export const DatasetColumnOut = Type.Object({
  name: Type.String(),
  type: Type.String({
    description: 'The DuckDB type as stored in the Parquet file: `VARCHAR`, `BIGINT`, `DECIMAL(18,3)`, `TIMESTAMP WITH TIME ZONE`, `VARCHAR[]`…',
  }),
});

export const DatasetParentOut = Type.Object({ id: Type.String(), name: Type.String() });

export const DatasetOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  columns: Type.Array(DatasetColumnOut, { description: '`_id` (the stable record id) first, then the columns in order.' }),
  row_count: Type.Integer(),
  bytes: Type.Integer({
    description: "Size of the compressed Parquet snapshot; 0 while a step's fresh output is still being written (its columns and count are known already).",
  }),
  step_run_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The step run that wrote it; null for datasets made outside a run or once that run was deleted.',
  }),
  run_id: Type.Union([Type.String(), Type.Null()]),
  workflow_id: Type.Union([Type.String(), Type.Null()]),
  step_id: Type.Union([Type.String(), Type.Null()]),
  parents: Type.Optional(Type.Array(DatasetParentOut, { description: 'Lineage: the datasets the step read. Absent when include_lineage=false.' })),
  created_at: Type.String(),
  expires_at: Type.Union([Type.String(), Type.Null()]),
});
export type DatasetOut = Static<typeof DatasetOut>;

export const RECORDS_QUERY_LIMITS = {
  sortLength: 2000,
  columnsLength: 20_000,
  filtersLength: 20_000,
  maxColumnName: 300,
} as const;

export const FILTER_OP_NAMES = ['=', '!=', '<', '<=', '>', '>=', 'contains', 'starts_with', 'is_null', 'is_not_null', 'in'] as const;

/** The view of a dataset's records, as the records grid asks for it: sort, columns, filters. */
const viewFields = {
  sort: Type.Optional(
    Type.String({
      maxLength: RECORDS_QUERY_LIMITS.sortLength,
      description: `Comma-separated sort keys, each \`column\` or \`column:asc\` / \`column:desc\`, applied in order (at most ${RECORDS_LIMITS.maxSortKeys}); nulls last; ties keep file order; a column whose name holds \`:\` needs its direction written out. Example: \`price:desc,name:asc\`.`,
    }),
  ),
  columns: Type.Optional(
    Type.String({
      maxLength: RECORDS_QUERY_LIMITS.columnsLength,
      description: `Comma-separated columns to answer (at most ${RECORDS_LIMITS.maxColumns}); \`_id\` always comes first. All columns when absent or empty.`,
    }),
  ),
  filters: Type.Optional(
    Type.String({
      maxLength: RECORDS_QUERY_LIMITS.filtersLength,
      description:
        `A JSON array of at most ${RECORDS_LIMITS.maxFilters} filters, all of which must hold: \`[{"column":"price","op":">=","value":10}, {"column":"name","op":"contains","value":"ab"}]\`. ` +
        `Operators: ${FILTER_OP_NAMES.map((op) => `\`${op}\``).join(', ')}. Values are compared in the column's type (numbers as JSON numbers or digits, dates as \`2024-01-15\`); ` +
        `\`contains\` and \`starts_with\` ignore case and apply to text; \`is_null\`/\`is_not_null\` take no value; \`in\` takes a list of 1 to ${RECORDS_LIMITS.maxInValues} values; ` +
        `a value has at most ${RECORDS_LIMITS.maxValueLength} characters.`,
    }),
  ),
};

export const RecordsQueryIn = Type.Object(
  {
    ...pageFields({ size: RECORDS_LIMITS.defaultPageSize, maxSize: RECORDS_LIMITS.maxPageSize }),
    ...viewFields,
  },
  { additionalProperties: false },
);
export type RecordsQueryIn = Static<typeof RecordsQueryIn>;

export const RecordOut = Type.Record(Type.String(), Type.Unknown(), {
  description: 'One record: column name → value (`_id` first). Values as JSON: see engine/datasets/json-values.ts.',
});

export const RecordsPageOut = Type.Object({
  ...Page(RecordOut).properties,
  columns: Type.Array(DatasetColumnOut, { description: 'The answered columns, in order.' }),
});
export type RecordsPageOut = Static<typeof RecordsPageOut>;

export const DownloadQuery = Type.Object(
  {
    format: Type.Union(
      EXPORT_FORMATS.map((f) => Type.Literal(f)),
      { default: 'csv', description: '`csv` (a header row, then every record, `_id` first) or `parquet` (the stored snapshot itself).' },
    ),
    raw: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          "CSV only (ignored for `parquet`). false: a text cell or column name that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'` in front, so a spreadsheet opening the file does not run it as a formula (OWASP, CSV Injection); numbers, dates and booleans are written as they are. true: every value and name exactly as stored, for programs that read the file.",
      }),
    ),
    ...viewFields,
    include_id: Type.Optional(
      Type.Boolean({
        default: true,
        description:
          'Write `_id` (the record id) as the first column. With `sort`, `filters` or `columns` (the same forms as the records call) the file holds the records and columns a grid shows, in its order, instead of every record in file order; the grid sends `include_id=false` unless its user asks for the ids. A Parquet download of the whole dataset with its ids is the stored snapshot itself.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DownloadQuery = Static<typeof DownloadQuery>;

export const CompareQueryIn = Type.Object(
  {
    with: Id,
    key: Type.String({
      minLength: 1,
      maxLength: RECORDS_QUERY_LIMITS.maxColumnName,
      description:
        'The column that matches records across the two datasets: it must exist in both and hold one distinct, non-null value per record in each (else 422).',
    }),
    ...pageFields({ size: COMPARE_LIMITS.defaultPageSize, maxSize: COMPARE_LIMITS.maxPageSize }),
    show: Type.Union(
      COMPARE_SHOW.map((s) => Type.Literal(s)),
      { default: 'all', description: 'Which differences the page lists: `added`, `removed`, `changed` records, or `all` of them (ordered by key).' },
    ),
  },
  { additionalProperties: false },
);
export type CompareQueryIn = Static<typeof CompareQueryIn>;

const ColumnTypeChangeOut = Type.Object({ name: Type.String(), before: Type.String(), after: Type.String() });
const ColumnChangeOut = Type.Object({ column: Type.String(), before: Type.Unknown(), after: Type.Unknown() });

export const CompareOut = Type.Object({
  schema: Type.Object({
    added: Type.Array(DatasetColumnOut, { description: 'Columns in this dataset only.' }),
    removed: Type.Array(DatasetColumnOut, { description: 'Columns in the `with` dataset only.' }),
    type_changed: Type.Array(ColumnTypeChangeOut),
  }),
  counts: Type.Object({ added: Type.Integer(), removed: Type.Integer(), changed: Type.Integer(), unchanged: Type.Integer() }),
  ...Page(
    Type.Object({
      status: Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('changed')]),
      key: Type.Unknown({ description: "The key column's value." }),
      changes: Type.Array(ColumnChangeOut, {
        description: 'Changed records: each differing column (among those in both datasets, `_id` aside), before → after.',
      }),
      record: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Added records: the record here; removed ones: the record in `with`.' })),
    }),
  ).properties,
});
export type CompareOut = Static<typeof CompareOut>;

export const SiblingsOut = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      run_id: Type.String(),
      row_count: Type.Union([Type.Integer(), Type.Null()], {
        description: 'Null while the dataset is deferred (computed from its inputs, not written yet): opening it writes it and tells the count.',
      }),
      created_at: Type.String(),
      expires_at: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
export type SiblingsOut = Static<typeof SiblingsOut>;

/** How many of a column's values GET /datasets/{id}/values answers at most. */
export const MAX_COLUMN_VALUES = 200;

export const ColumnValuesQuery = Type.Object({
  column: Type.String({ minLength: 1, maxLength: 300, description: 'The column whose values to count' }),
  limit: Type.Integer({ minimum: 1, maximum: MAX_COLUMN_VALUES, default: 100, description: `How many values at most (1–${MAX_COLUMN_VALUES})` }),
});

export const ColumnValuesOut = Type.Object({
  column: Type.String(),
  values: Type.Array(
    Type.Object({
      value: Type.Unknown({ description: 'The value as JSON (null: empty)' }),
      count: Type.Integer({ description: 'Records holding it' }),
    }),
    { description: 'The most frequent first; ties in value order; empty last' },
  ),
  distinct: Type.Integer({ description: 'How many distinct values the column has (empty counts as one)' }),
});
export type ColumnValuesOut = Static<typeof ColumnValuesOut>;

export const DATASET_LIST_LIMITS = { maxQueryLength: 200, defaultPageSize: 20, maxPageSize: 100 } as const;

export const DatasetListQueryIn = Type.Object(
  {
    ...pageFields({ size: DATASET_LIST_LIMITS.defaultPageSize, maxSize: DATASET_LIST_LIMITS.maxPageSize }),
    q: Type.Optional(
      Type.String({
        maxLength: DATASET_LIST_LIMITS.maxQueryLength,
        description: 'Only datasets whose name contains this text (case-insensitive; `%` and `_` are taken literally).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DatasetListQueryIn = Static<typeof DatasetListQueryIn>;

export const DatasetSummaryOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  row_count: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Null while the dataset is deferred (computed from its inputs, not written yet): opening it writes it and tells the count.',
  }),
  bytes: Type.Integer({ description: 'Size of the compressed Parquet snapshot.' }),
  created_at: Type.String(),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  workflow_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The workflow whose run made it; null for datasets made outside a run or once that run was deleted.',
  }),
  workflow_name: Type.Union([Type.String(), Type.Null()]),
  step_id: Type.Union([Type.String(), Type.Null()]),
});
export const DatasetListOut = Page(DatasetSummaryOut);
export type DatasetListOut = Static<typeof DatasetListOut>;
