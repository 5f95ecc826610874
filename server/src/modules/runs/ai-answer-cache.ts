import type { Db } from '../../db/database';
import type { JsonValue } from '../../engine/datasets';
import type { AnswerCache, CachedAnswer } from '../../engine/runners';

/** Entries older than this are pruned. */
export const AI_CACHE_MAX_AGE_MS = 30 * 24 * 3600_000;
/** Entries each owner keeps at most (the newest). */
export const AI_CACHE_MAX_ENTRIES = 20_000;
/** Keys looked up per query (bound parameters stay well under both databases' limits). */
const CHUNK = 500;

/**
 * The AI steps' answers for one owner, in `ai_answer_cache` (migration 010). Storing an answer
 * again (a retried record) replaces it and makes it new again.
 */
export class AiAnswerCache implements AnswerCache {
  constructor(
    private readonly db: Db,
    private readonly ownerId: string,
  ) {}

  async get(keys: readonly string[]): Promise<Map<string, CachedAnswer>> {
    const found = new Map<string, CachedAnswer>();
    for (let at = 0; at < keys.length; at += CHUNK) {
      const chunk = keys.slice(at, at + CHUNK);
      if (!chunk.length) continue;
      const rows = await this.db
        .selectFrom('ai_answer_cache')
        .select(['cache_key', 'answer', 'step_run_id', 'record_id', 'tokens_in', 'tokens_out'])
        .where('user_id', '=', this.ownerId)
        .where('cache_key', 'in', chunk)
        .execute();
      for (const row of rows) {
        found.set(row.cache_key, {
          answer: JSON.parse(row.answer) as JsonValue,
          stepRunId: row.step_run_id,
          recordId: row.record_id,
          tokensIn: Number(row.tokens_in),
          tokensOut: Number(row.tokens_out),
        });
      }
    }
    return found;
  }

  async put(entries: readonly ({ key: string; modelId: string } & CachedAnswer)[]): Promise<void> {
    const created_at = new Date().toISOString();
    for (let at = 0; at < entries.length; at += 100) {
      const rows = entries.slice(at, at + 100).map((e) => ({
        user_id: this.ownerId,
        cache_key: e.key,
        model_id: e.modelId.slice(0, 500),
        answer: JSON.stringify(e.answer),
        step_run_id: e.stepRunId,
        record_id: e.recordId === null ? null : e.recordId.slice(0, 500),
        tokens_in: Math.max(0, Math.round(e.tokensIn)),
        tokens_out: Math.max(0, Math.round(e.tokensOut)),
        created_at,
      }));
      // The same key twice in one statement would make PostgreSQL refuse the upsert.
      const unique = [...new Map(rows.map((r) => [r.cache_key, r])).values()];
      await this.db
        .insertInto('ai_answer_cache')
        .values(unique)
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
  }

  /** Drops the owner's entries older than the age limit, then all but the newest `maxEntries`. Answers how many went. */
  async prune(options: { maxAgeMs?: number; maxEntries?: number; now?: Date } = {}): Promise<number> {
    const now = options.now ?? new Date();
    const cutoff = new Date(now.getTime() - (options.maxAgeMs ?? AI_CACHE_MAX_AGE_MS)).toISOString();
    const old = await this.db.deleteFrom('ai_answer_cache').where('user_id', '=', this.ownerId).where('created_at', '<', cutoff).executeTakeFirst();
    let removed = Number(old.numDeletedRows);
    const keep = options.maxEntries ?? AI_CACHE_MAX_ENTRIES;
    // The newest entry beyond the limit: it and everything older goes.
    const edge = await this.db
      .selectFrom('ai_answer_cache')
      .select(['created_at', 'cache_key'])
      .where('user_id', '=', this.ownerId)
      .orderBy('created_at', 'desc')
      .orderBy('cache_key', 'desc')
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
    if (edge) {
      const extra = await this.db
        .deleteFrom('ai_answer_cache')
        .where('user_id', '=', this.ownerId)
        .where((eb) => eb.or([eb('created_at', '<', edge.created_at), eb.and([eb('created_at', '=', edge.created_at), eb('cache_key', '<=', edge.cache_key)])]))
        .executeTakeFirst();
      removed += Number(extra.numDeletedRows);
    }
    return removed;
  }
}
