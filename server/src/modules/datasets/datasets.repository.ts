import type { Db } from '../../db/database';
import { containsText } from '../../db/text-match';
import type { DatasetsTable } from '../../db/schema';
import type { DatasetColumn, DatasetMetadata } from '../../engine/datasets/metadata';
import type { DatasetRecipe } from '../../engine/datasets/recipe';

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
 * The `datasets` and `dataset_parents` rows (db/schema.ts) and the engine's DatasetMetadata. The
 * table has no parent position, so lineage comes back in the parents' creation order (then id),
 * and the service puts it in the step run's input order when that run is still there.
 */
const toMeta = (row: DatasetsTable, parentIds: string[]): DatasetMetadata => ({
  id: row.id,
  ownerId: row.user_id,
  name: row.name,
  storageKey: row.storage_key,
  columns: JSON.parse(row.columns) as DatasetColumn[],
  rowCount: Number(row.row_count),
  bytes: Number(row.bytes),
  stepRunId: row.step_run_id,
  parentIds,
  createdAt: row.created_at,
  recipe: row.recipe ? (JSON.parse(row.recipe) as DatasetRecipe) : null,
});

export interface DatasetListQuery {
  q?: string;
  /** ISO time: datasets that expired before it are left out. */
  now: string;
  limit: number;
  offset: number;
}

export class DatasetsRepository {
  constructor(private readonly db: Db) {}

  /**
   * A page of this owner's datasets that have not expired, newest first, with the workflow and step
   * that made each (LEFT JOINs: null when made outside a run or once the run is gone), and the total.
   */
  async list(userId: string, query: DatasetListQuery) {
    let base = this.db
      .selectFrom('datasets as d')
      .where('d.user_id', '=', userId)
      .where((eb) => eb.or([eb('d.expires_at', 'is', null), eb('d.expires_at', '>', query.now)]));
    if (query.q) base = base.where(containsText('d.name', query.q));
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
      base
        .leftJoin('step_runs as s', 's.id', 'd.step_run_id')
        .leftJoin('workflow_runs as r', 'r.id', 's.run_id')
        .leftJoin('workflows as w', 'w.id', 'r.workflow_id')
        .select([
          'd.id',
          'd.name',
          'd.row_count',
          'd.bytes',
          'd.recipe',
          'd.created_at',
          'd.expires_at',
          'r.workflow_id',
          'w.name as workflow_name',
          's.step_id',
        ])
        .orderBy('d.created_at', 'desc')
        .orderBy('d.id', 'desc')
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
    ]);
    return { total: Number(count.total), rows };
  }

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

  /**
   * Other datasets of this owner made by the same step of the same workflow (any run, any mode),
   * newest first: what a dataset can be compared with.
   */
  siblingsOf(userId: string, origin: { workflowId: string; stepId: string }, exceptId: string, limit: number) {
    return this.db
      .selectFrom('datasets as d')
      .innerJoin('step_runs as s', 's.id', 'd.step_run_id')
      .innerJoin('workflow_runs as r', 'r.id', 's.run_id')
      .select(['d.id', 'd.name', 's.run_id', 'd.row_count', 'd.recipe', 'd.created_at', 'd.expires_at'])
      .where('d.user_id', '=', userId)
      .where('r.workflow_id', '=', origin.workflowId)
      .where('s.step_id', '=', origin.stepId)
      .where('d.id', '!=', exceptId)
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Which of these ids are datasets of this owner. */
  async ownedIds(userId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.db.selectFrom('datasets').select('id').where('id', 'in', ids).where('user_id', '=', userId).execute();
    return new Set(rows.map((r) => r.id));
  }

  /** The row and its lineage in one transaction: a dataset is never seen without its parents. */
  async insert(meta: DatasetMetadata, expiresAt: string | null = null): Promise<void> {
    const row: DatasetsTable = {
      id: meta.id,
      user_id: meta.ownerId,
      name: meta.name,
      storage_key: meta.storageKey,
      columns: JSON.stringify(meta.columns),
      row_count: meta.rowCount,
      bytes: meta.bytes,
      step_run_id: meta.stepRunId,
      created_at: meta.createdAt,
      expires_at: expiresAt,
      recipe: meta.recipe ? JSON.stringify(meta.recipe) : null,
    };
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('datasets').values(row).execute();
      if (meta.parentIds.length)
        await tx
          .insertInto('dataset_parents')
          .values(meta.parentIds.map((parentId) => ({ dataset_id: meta.id, parent_id: parentId })))
          .execute();
    });
  }

  // ---- deferred snapshots (materializer.ts) ----

  /** What writing a deferred dataset's snapshot needs: its owner, name, key, run and recipe (null once stored). */
  async findForMaterializing(id: string) {
    return this.db.selectFrom('datasets').select(['id', 'user_id', 'name', 'storage_key', 'step_run_id', 'recipe']).where('id', '=', id).executeTakeFirst();
  }

  /** Flips a deferred dataset to stored with its snapshot's counts; a row already stored (by another process) is left as it is. */
  async markMaterialized(id: string, stored: { columns: DatasetColumn[]; rowCount: number; bytes: number }): Promise<void> {
    await this.db
      .updateTable('datasets')
      .set({ recipe: null, row_count: stored.rowCount, bytes: stored.bytes, columns: JSON.stringify(stored.columns) })
      .where('id', '=', id)
      .where('recipe', 'is not', null)
      .execute();
  }
}
