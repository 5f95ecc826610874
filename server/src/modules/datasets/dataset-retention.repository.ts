import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';

/** Step run states whose inputs are still to be read (or being read). */
const IN_PROGRESS = ['queued', 'running', 'paused'] as const;

type DatasetsScope = ExpressionBuilder<Database, 'datasets'>;

/**
 * Not read by a step run still in progress. `input_dataset_ids` is a JSON list of server-made
 * UUIDs, so "names this id" is a LIKE on the quoted id, the same in SQLite and PostgreSQL; step
 * runs in progress are few (an index on state), so this stays cheap.
 */
const notReadByUnfinishedStepRun = (eb: DatasetsScope) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('step_runs as reader')
        .select(sql.lit(1).as('one'))
        .where('reader.state', 'in', IN_PROGRESS)
        .where(sql<boolean>`reader.input_dataset_ids LIKE '%"' || datasets.id || '"%'`),
    ),
  );

/** No step run created since `since` answered it as its output (a cached step reuses an old dataset). */
/**
 * Not a file a deferred dataset's recipe reads (its parents' snapshots, a CSV copy: recipe.ts's
 * leaves, stored as `"datasetId":"<id>"` in the recipe's JSON): it stays while such a dataset
 * does, deferred, and goes in a later pass once that one is gone or written.
 */
const notNeededByDeferred = (eb: DatasetsScope) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('datasets as needer')
        .select(sql.lit(1).as('one'))
        .where('needer.recipe', 'is not', null)
        .whereRef('needer.id', '!=', 'datasets.id')
        .where(sql<boolean>`needer.recipe LIKE '%"datasetId":"' || datasets.id || '"%'`),
    ),
  );

const notReusedSince = (eb: DatasetsScope, since: string) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('step_runs as reuser')
        .select(sql.lit(1).as('one'))
        .whereRef('reuser.output_dataset_id', '=', 'datasets.id')
        .where('reuser.created_at', '>=', since),
    ),
  );

/**
 * The rows housekeeping removes: datasets past `expires_at`, and (with a retention period) run
 * outputs older than it. Every delete re-checks, in the statement itself, that no unfinished step
 * run reads the dataset, so a run that started after the candidates were chosen keeps its inputs.
 */
export class DatasetRetentionRepository {
  constructor(private readonly db: Db) {}

  /** Datasets whose `expires_at` has passed. */
  expiredIds(now: string, limit: number): Promise<{ id: string }[]> {
    return this.db
      .selectFrom('datasets')
      .select('id')
      .where('expires_at', 'is not', null)
      .where('expires_at', '<', now)
      .where((eb) => notReadByUnfinishedStepRun(eb))
      .where((eb) => notNeededByDeferred(eb))
      .orderBy('expires_at')
      .limit(limit)
      .execute();
  }

  /**
   * Outputs of step runs made before `cutoff` and kept without an expiry, except each step's
   * newest such output (per workflow and step, what "run from here" and the column pickers read):
   * the newest finished step run's output among those that do not expire themselves, since a
   * sample's output will soon be gone and the step must still have one after it. Uploads (no step
   * run) are not run outputs and are kept.
   */
  retiredIds(cutoff: string, limit: number): Promise<{ id: string }[]> {
    const newestPerStep = this.db
      .selectFrom((qb) =>
        qb
          .selectFrom('step_runs as s')
          .innerJoin('workflow_runs as r', 'r.id', 's.run_id')
          .innerJoin('datasets as kept', 'kept.id', 's.output_dataset_id')
          .select([
            's.output_dataset_id as dataset_id',
            sql<number>`row_number() OVER (PARTITION BY r.workflow_id, s.step_id ORDER BY s.ended_at DESC, s.id DESC)`.as('recency'),
          ])
          .where('s.state', 'in', ['succeeded', 'cached'])
          .where('kept.expires_at', 'is', null)
          .as('ranked'),
      )
      .select('ranked.dataset_id')
      .where('ranked.recency', '=', 1);
    return this.db
      .selectFrom('datasets')
      .select('id')
      .where('expires_at', 'is', null)
      .where('step_run_id', 'is not', null)
      .where('created_at', '<', cutoff)
      .where('id', 'not in', newestPerStep)
      .where((eb) => notReadByUnfinishedStepRun(eb))
      .where((eb) => notNeededByDeferred(eb))
      .where((eb) => notReusedSince(eb, cutoff))
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /**
   * Deletes the row (its lineage rows go with it) unless a step run in progress reads it, or,
   * with `notReusedSince`, a step run since then took it as its output; answers its storage key
   * when deleted, else null. The file is the caller's to delete after: a crash in between leaves
   * an orphan file, which the sweep finds, never a row without its file.
   */
  async deleteUnused(id: string, options: { notReusedSince?: string } = {}): Promise<string | null> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom('datasets').select('storage_key').where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      let query = tx
        .deleteFrom('datasets')
        .where('id', '=', id)
        .where((eb) => notReadByUnfinishedStepRun(eb))
        .where((eb) => notNeededByDeferred(eb));
      if (options.notReusedSince) {
        const since = options.notReusedSince;
        query = query.where((eb) => notReusedSince(eb, since));
      }
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows) > 0 ? row.storage_key : null;
    });
  }

  /** Which of these storage keys a dataset row names. */
  async knownKeys(keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await this.db.selectFrom('datasets').select('storage_key').where('storage_key', 'in', keys).execute();
    return new Set(rows.map((r) => r.storage_key));
  }
}
