import type { Kysely } from 'kysely';

/**
 * The gallery copy remembers which version of the workflow it was taken from, so the editor can
 * say when the gallery shows an older one. Copies published before this stay NULL: which version
 * they were taken from is not known, and the editor offers to update them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workflows').addColumn('published_version', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workflows').dropColumn('published_version').execute();
}
