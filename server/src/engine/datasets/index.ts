export { Datasets, type DatasetsOptions } from './datasets';
export { DuckDBPool, type DuckDBPoolOptions } from './duckdb-pool';
export {
  DatasetAlreadyStored,
  DatasetNotFound,
  InvalidDatasetInput,
  InvalidRecordsQuery,
  RecordNotFound,
  type QueryIssue,
  type QueryIssueCode,
} from './errors';
export { toJsonValue, type JsonRecord, type JsonValue } from './json-values';
export * from './metadata';
export { ParquetFiles, type LocalFile, type ParquetFilesOptions } from './parquet-files';
export { DatasetReader, type DatasetDescription, type DatasetReaderOptions, type RecordsPage } from './reader';
export { FILTER_OPS, RECORDS_LIMITS, type FilterOp, type RecordsFilter, type RecordsQuery, type RecordsSort } from './records-query';
export {
  DatasetWriter,
  ROW_COLUMN_TYPES,
  type RowBatch,
  type RowColumn,
  type RowColumnType,
  type RowsSource,
  type SqlSource,
  type WriteDataset,
} from './writer';
export { DatasetExporter, EXPORT_FORMATS, type ExportedFile, type ExportFormat, type ExportOptions, type ExportView } from './exporter';
export {
  COMPARE_LIMITS,
  COMPARE_SHOW,
  DatasetComparer,
  type ColumnChange,
  type CompareQuery,
  type CompareShow,
  type DatasetComparison,
  type RowDifference,
  type RowStatus,
} from './compare';
export {
  compose,
  isStableType,
  newMarker,
  recipeRelation,
  storedRelation,
  type DatasetRecipe,
  type RecipeLeaf,
  type RecipeParam,
  type Relation,
} from './recipe';
