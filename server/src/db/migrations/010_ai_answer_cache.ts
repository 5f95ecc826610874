import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestampType } from './column-types';

/**
 * Answers of the AI steps, kept so a rerun with the same model, prompt and record does not call
 * (and pay for) the model again. One row per owner and key; the key is the SHA-256 of the model's
 * id, the prompt after templating and the schema and options of the call (`runners/per-record/ai.ts`).
 * Kept per owner: an answer is never served to another user. Bounded by the run engine
 * (`ai-answer-cache.ts`): entries older than 30 days go, and each owner keeps the newest 20,000.
 *
 *   users ─< ai_answer_cache (PRIMARY KEY user_id + cache_key)
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('ai_answer_cache')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('cache_key', 'text', (c) => c.notNull())
    .addColumn('model_id', 'text', (c) => c.notNull())
    // The answer as JSON text: a string, an object of fields, or a vector.
    .addColumn('answer', 'text', (c) => c.notNull())
    // Who paid for the answer (step run, record) and how much: the same step run finding it again after a crash
    // (its batch's usage not stored yet) records these tokens under the same record key, once.
    // No foreign key: the answer outlives the run.
    .addColumn('step_run_id', 'text')
    .addColumn('record_id', 'text')
    .addColumn('tokens_in', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tokens_out', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
    .addPrimaryKeyConstraint('ai_answer_cache_pk', ['user_id', 'cache_key'])
    .execute();
  // Pruning reads an owner's entries newest first.
  await db.schema.createIndex('ai_answer_cache_user_created').on('ai_answer_cache').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ai_answer_cache').execute();
}
