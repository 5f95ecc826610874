import type { Db } from '../../db/database';
import { DatasetAlreadyStored, recipeRelation, type DatasetColumn, type DatasetRecipe, type Datasets } from '../../engine/datasets';
import type { Log } from '../../lib/logger';
import { DatasetsRepository } from './datasets.repository';

const SNAPSHOT_KEY = /^datasets\/([^/]+)\/([0-9a-f-]{36})\.parquet$/;

/**
 * Writes deferred datasets' snapshots when something needs the file (docs/architecture.md,
 * "Deferred snapshots"). Hooked into the dataset layer's file opening (`ParquetFiles.materializer`),
 * so every reader — records, a record, downloads, compare, a later step reading through a file —
 * materializes on demand, without knowing about recipes.
 *
 * Once, persisted: in this process concurrent openers share one materialization; across processes
 * the snapshot is written under its own key (the same records and ids whoever writes it: the
 * writer refuses a key already stored) and the row flips from deferred to stored by a conditional
 * UPDATE. A crash between the two leaves the row deferred: the next open finds the snapshot
 * stored, reads its counts back and flips the row then.
 */
export class DatasetMaterializer {
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private readonly repo: DatasetsRepository;
  /** Snapshots written by this process (tests and the bench count them). */
  written = 0;

  constructor(
    db: Db,
    private readonly datasets: Datasets,
    private readonly log?: Log,
  ) {
    this.repo = new DatasetsRepository(db);
  }

  /** Hooks this materializer into the dataset layer: a missing snapshot of a deferred dataset is written when opened. */
  install(): this {
    this.datasets.files.materializer = (storageKey) => this.materializeKey(storageKey);
    return this;
  }

  /** For ParquetFiles: true when `storageKey` was a deferred dataset's snapshot and is now stored. */
  materializeKey(storageKey: string): Promise<boolean> {
    const match = SNAPSHOT_KEY.exec(storageKey);
    return match ? this.materialize(match[2], storageKey) : Promise.resolve(false);
  }

  /** Writes the dataset's snapshot if it is deferred; true once it is stored (by us or anyone). */
  materialize(datasetId: string, storageKey?: string): Promise<boolean> {
    let pending = this.inFlight.get(datasetId);
    if (!pending) {
      pending = this.write(datasetId, storageKey).finally(() => this.inFlight.delete(datasetId));
      this.inFlight.set(datasetId, pending);
    }
    return pending;
  }

  private async write(datasetId: string, expectedKey?: string): Promise<boolean> {
    const row = await this.repo.findForMaterializing(datasetId);
    if (!row || (expectedKey && row.storage_key !== expectedKey)) return false;
    if (!row.recipe) return !!(await this.datasets.storage.head(row.storage_key));
    const recipe = JSON.parse(row.recipe) as DatasetRecipe;
    let stored: { columns: DatasetColumn[]; rowCount: number; bytes: number };
    try {
      const started = Date.now();
      stored = await this.datasets.writeRelation({
        ownerId: row.user_id,
        name: row.name,
        datasetId: row.id,
        stepRunId: row.step_run_id,
        relation: recipeRelation(recipe),
        idsUnique: true,
      });
      this.written++;
      this.log?.info({ datasetId, rows: stored.rowCount, ms: Date.now() - started }, 'materialized a deferred dataset');
    } catch (err) {
      if (!(err instanceof DatasetAlreadyStored)) throw err;
      // Written by another process (or by us before a crash): take its counts from the file.
      stored = await this.datasets.describe({ storageKey: row.storage_key });
    }
    await this.repo.markMaterialized(datasetId, stored);
    return true;
  }
}
