import type { Db } from '../../db/database';
import type { DatasetsTable } from '../../db/schema';
import { fromDatasetRows, toDatasetRows, type DatasetMetadata } from '../../engine/datasets/metadata';

export interface StoredDataset {
  meta: DatasetMetadata;
  expiresAt: string | null;
}

export interface DatasetOrigin {
  runId: string;
  workflowId: string;
  stepId: string;
  /** JSON string[]: the step's inputs in order, which is lineage's order. */
  inputDatasetIds: string;
}

/*
 * The `datasets` and `dataset_parents` rows. The engine's row shape (metadata.ts) names the owner
 * `owner_id` and keeps each parent's position; the migrated table says `user_id` and has no
 * position column, so lineage comes back in the parents' creation order (then id), and the
 * service puts it in the step run's input order when that run is still there.
 */
const toMeta = (row: DatasetsTable, parentIds: string[]): DatasetMetadata =>
  fromDatasetRows(
    { id: row.id, owner_id: row.user_id, name: row.name, storage_key: row.storage_key, columns: row.columns, row_count: row.row_count, bytes: row.bytes, step_run_id: row.step_run_id, created_at: row.created_at },
    parentIds.map((parentId, position) => ({ dataset_id: row.id, parent_id: parentId, position })),
  );

export class DatasetsRepository {
  constructor(private readonly db: Db) {}

  /** A dataset of this owner, or undefined (another user's dataset is simply not found). */
  async findOwned(userId: string, id: string): Promise<StoredDataset | undefined> {
    const row = await this.db.selectFrom('datasets').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) return undefined;
    return { meta: toMeta(row, []), expiresAt: row.expires_at };
  }

  /** The parents of a dataset that belong to the same owner, oldest first. */
  parentsOf(userId: string, id: string): Promise<{ id: string; name: string }[]> {
    return this.db
      .selectFrom('dataset_parents as p')
      .innerJoin('datasets as d', 'd.id', 'p.parent_id')
      .select(['d.id', 'd.name'])
      .where('p.dataset_id', '=', id)
      .where('d.user_id', '=', userId)
      .orderBy('d.created_at')
      .orderBy('d.id')
      .execute();
  }

  /** The run and step behind a step run, when it still exists. */
  originOf(stepRunId: string): Promise<DatasetOrigin | undefined> {
    return this.db
      .selectFrom('step_runs as s')
      .innerJoin('workflow_runs as r', 'r.id', 's.run_id')
      .select(['s.run_id as runId', 'r.workflow_id as workflowId', 's.step_id as stepId', 's.input_dataset_ids as inputDatasetIds'])
      .where('s.id', '=', stepRunId)
      .executeTakeFirst();
  }

  /** Which of these ids are datasets of this owner. */
  async ownedIds(userId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.db.selectFrom('datasets').select('id').where('id', 'in', ids).where('user_id', '=', userId).execute();
    return new Set(rows.map((r) => r.id));
  }

  /** The row and its lineage in one transaction: a dataset is never seen without its parents. */
  async insert(meta: DatasetMetadata, expiresAt: string | null = null): Promise<void> {
    const { dataset, parents } = toDatasetRows(meta);
    const { owner_id, ...rest } = dataset;
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('datasets').values({ ...rest, user_id: owner_id, expires_at: expiresAt }).execute();
      if (parents.length) await tx.insertInto('dataset_parents').values(parents.map((p) => ({ dataset_id: p.dataset_id, parent_id: p.parent_id }))).execute();
    });
  }
}
