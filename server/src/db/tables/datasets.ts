// Datasets: immutable snapshots and their lineage.
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

export interface DatasetsTable {
  id: string;
  user_id: string;
  name: string;
  storage_key: string;
  /** JSON [{name, type}] */
  columns: string;
  row_count: number;
  bytes: number;
  /** The step run that wrote it; NULL for uploads and once that run is deleted. */
  step_run_id: string | null;
  created_at: string;
  /** NULL: kept until deleted. */
  expires_at: string | null;
  /** JSON DatasetRecipe while deferred (no snapshot yet, row_count unknown); NULL once stored (migration 011). */
  recipe?: string | null;
}

export interface DatasetParentsTable {
  dataset_id: string;
  parent_id: string;
}
