import type { Kysely } from 'kysely';

/**
 * A user's own chat model for agents and AI steps, used instead of the operator's (LLM_*): its
 * address, model name and provider, and its API key sealed with the secrets key (never returned).
 * All NULL: the operator's model applies.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['ai_base_url', 'ai_model', 'ai_provider', 'ai_api_key_sealed']) {
    await db.schema.alterTable('users').addColumn(column, 'text').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['ai_api_key_sealed', 'ai_provider', 'ai_model', 'ai_base_url']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
