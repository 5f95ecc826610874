import type { Db } from '../../db/database';
import type { JsonValue } from '../../engine/datasets';
import type { AnswerCache, CachedAnswer } from '../../engine/runners';
import { AiAnswerCacheRepository } from './ai-answer-cache.repository';

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
  private readonly repo: AiAnswerCacheRepository;

  constructor(db: Db, ownerId: string) {
    this.repo = new AiAnswerCacheRepository(db, ownerId);
  }

  async get(keys: readonly string[]): Promise<Map<string, CachedAnswer>> {
    const found = new Map<string, CachedAnswer>();
    for (let at = 0; at < keys.length; at += CHUNK) {
      const chunk = keys.slice(at, at + CHUNK);
      if (!chunk.length) continue;
      for (const row of await this.repo.find(chunk)) {
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
      await this.repo.upsert([...new Map(rows.map((r) => [r.cache_key, r])).values()]);
    }
  }

  /** Drops the owner's entries older than the age limit, then all but the newest `maxEntries`. Answers how many went. */
  async prune(options: { maxAgeMs?: number; maxEntries?: number; now?: Date } = {}): Promise<number> {
    const now = options.now ?? new Date();
    const cutoff = new Date(now.getTime() - (options.maxAgeMs ?? AI_CACHE_MAX_AGE_MS)).toISOString();
    let removed = await this.repo.deleteOlderThan(cutoff);
    // The newest entry beyond the limit: it and everything older goes.
    const edge = await this.repo.firstBeyondNewest(options.maxEntries ?? AI_CACHE_MAX_ENTRIES);
    if (edge) removed += await this.repo.deleteFromEdge(edge);
    return removed;
  }
}
