import type { Db } from '../../db/database';
import type { AiAnswerCacheTable } from '../../db/schema';

/** The `ai_answer_cache` rows (migration 010) of one owner; ai-answer-cache.ts decides what to keep. */
export class AiAnswerCacheRepository {
  constructor(
    private readonly db: Db,
    private readonly ownerId: string,
  ) {}

  async find(keys: readonly string[]) {
    return this.db
      .selectFrom('ai_answer_cache')
      .select(['cache_key', 'answer', 'step_run_id', 'record_id', 'tokens_in', 'tokens_out'])
      .where('user_id', '=', this.ownerId)
      .where('cache_key', 'in', keys)
      .execute();
  }

  /** Stores the rows, replacing (and making new again) those whose key is there already. Keys must be unique. */
  async upsert(rows: readonly Omit<AiAnswerCacheTable, 'user_id'>[]): Promise<void> {
    await this.db
      .insertInto('ai_answer_cache')
      .values(rows.map((r) => ({ ...r, user_id: this.ownerId })))
      .onConflict((oc) =>
        oc.columns(['user_id', 'cache_key']).doUpdateSet((eb) => ({
          answer: eb.ref('excluded.answer'),
          model_id: eb.ref('excluded.model_id'),
          step_run_id: eb.ref('excluded.step_run_id'),
          record_id: eb.ref('excluded.record_id'),
          tokens_in: eb.ref('excluded.tokens_in'),
          tokens_out: eb.ref('excluded.tokens_out'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .execute();
  }

  /** Deletes the entries created before `cutoff`; answers how many. */
  async deleteOlderThan(cutoff: string): Promise<number> {
    const old = await this.db.deleteFrom('ai_answer_cache').where('user_id', '=', this.ownerId).where('created_at', '<', cutoff).executeTakeFirst();
    return Number(old.numDeletedRows);
  }

  /** The entry after the newest `keep` ones (newest first, ties by key), if there are more. */
  async firstBeyondNewest(keep: number) {
    return this.db
      .selectFrom('ai_answer_cache')
      .select(['created_at', 'cache_key'])
      .where('user_id', '=', this.ownerId)
      .orderBy('created_at', 'desc')
      .orderBy('cache_key', 'desc')
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
  }

  /** Deletes `edge` and every entry older than it (in the same order as firstBeyondNewest); answers how many. */
  async deleteFromEdge(edge: { created_at: string; cache_key: string }): Promise<number> {
    const extra = await this.db
      .deleteFrom('ai_answer_cache')
      .where('user_id', '=', this.ownerId)
      .where((eb) => eb.or([eb('created_at', '<', edge.created_at), eb.and([eb('created_at', '=', edge.created_at), eb('cache_key', '<=', edge.cache_key)])]))
      .executeTakeFirst();
    return Number(extra.numDeletedRows);
  }
}
