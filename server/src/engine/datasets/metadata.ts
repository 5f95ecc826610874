/**
 * What the system knows about a dataset besides its Parquet file: the shape the `datasets` table
 * will hold when the run engine's migration adds it. The writer answers a `DatasetMetadata`; the
 * readers only need the storage key (`DatasetRef`), so they work before the table exists and for
 * files the table does not know yet (a step's input while it runs).
 */

/** The id column every record carries, stable through transforms (see writer.ts). */
export const RECORD_ID = '_id';

export interface DatasetColumn {
  name: string;
  /**
   * The DuckDB type as read back from the Parquet file, in DuckDB's own spelling: `VARCHAR`,
   * `BIGINT`, `DOUBLE`, `DECIMAL(18,3)`, `DATE`, `TIMESTAMP WITH TIME ZONE`, `JSON`,
   * `VARCHAR[]`, `STRUCT("a" INTEGER, "b" VARCHAR)`… It is what filters are checked against.
   */
  type: string;
}

/** Where a dataset's snapshot lives: enough to read it. */
export interface DatasetRef {
  storageKey: string;
}

export interface DatasetMetadata extends DatasetRef {
  id: string;
  ownerId: string;
  name: string;
  /** `_id` first, then the columns in the order the step produced them. */
  columns: DatasetColumn[];
  rowCount: number;
  /** Size of the Parquet file (ZSTD-compressed): what the dataset costs in storage. */
  bytes: number;
  /** The step run that wrote it; null for datasets made outside a run (an import by hand). */
  stepRunId: string | null;
  /** Lineage: the datasets the step read, in the order of its inputs. */
  parentIds: string[];
  createdAt: string;
}

/**
 * The storage key of a dataset's snapshot. Both parts are server-made UUIDs, so the key is safe
 * by construction (and storage checks it again). Snapshots are never overwritten: a new version
 * of a dataset is a new id.
 */
export const datasetKey = (ownerId: string, datasetId: string) => `datasets/${ownerId}/${datasetId}.parquet`;

/**
 * The row of the `datasets` table, as the repository will read and write it (snake_case, JSON as
 * text, timestamps as ISO strings: the conventions of db/schema.ts). Lineage is a table of its
 * own, so "which datasets were made from this one" is an indexed query rather than a JSON scan.
 */
export interface DatasetsTable {
  id: string;
  owner_id: string;
  name: string;
  storage_key: string;
  /** JSON DatasetColumn[] */
  columns: string;
  row_count: number;
  bytes: number;
  step_run_id: string | null;
  created_at: string;
}

export interface DatasetParentsTable {
  dataset_id: string;
  parent_id: string;
  /** The input's place among the step's inputs (0 = first), so lineage keeps the order. */
  position: number;
}

export function toDatasetRows(meta: DatasetMetadata): { dataset: DatasetsTable; parents: DatasetParentsTable[] } {
  return {
    dataset: {
      id: meta.id,
      owner_id: meta.ownerId,
      name: meta.name,
      storage_key: meta.storageKey,
      columns: JSON.stringify(meta.columns),
      row_count: meta.rowCount,
      bytes: meta.bytes,
      step_run_id: meta.stepRunId,
      created_at: meta.createdAt,
    },
    parents: meta.parentIds.map((parentId, position) => ({ dataset_id: meta.id, parent_id: parentId, position })),
  };
}

export function fromDatasetRows(row: DatasetsTable, parents: DatasetParentsTable[]): DatasetMetadata {
  return {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    storageKey: row.storage_key,
    columns: JSON.parse(row.columns) as DatasetColumn[],
    rowCount: Number(row.row_count),
    bytes: Number(row.bytes),
    stepRunId: row.step_run_id,
    parentIds: [...parents].sort((a, b) => a.position - b.position).map((p) => p.parent_id),
    createdAt: row.created_at,
  };
}
