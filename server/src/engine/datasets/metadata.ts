import type { DatasetRecipe } from './recipe';

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
  /**
   * Set while the dataset is deferred (recipe.ts): no snapshot is stored yet and `rowCount` and
   * `bytes` are 0 (unknown); opening the file through ParquetFiles materializes it.
   */
  recipe?: DatasetRecipe | null;
}

/**
 * The storage key of a dataset's snapshot. Both parts are server-made UUIDs, so the key is safe
 * by construction (and storage checks it again). Snapshots are never overwritten: a new version
 * of a dataset is a new id.
 */
export const datasetKey = (ownerId: string, datasetId: string) => `datasets/${ownerId}/${datasetId}.parquet`;
