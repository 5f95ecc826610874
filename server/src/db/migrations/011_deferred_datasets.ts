import type { Kysely } from 'kysely';

/**
 * Deferred snapshots (docs/architecture.md, "Deferred snapshots"): a dataset whose `recipe` is set
 * has no Parquet file yet; the recipe (JSON, engine/datasets/recipe.ts) says how to compute it
 * from stored files (its parents' snapshots, or a CSV copy it owns), and `row_count` means
 * nothing until it is materialized. Materializing writes the snapshot at `storage_key`, then sets
 * `recipe` back to NULL with the real row count and size. Rows from before stay NULL: stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('datasets').addColumn('recipe', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('datasets').dropColumn('recipe').execute();
}
