import type { Kysely } from 'kysely';

/**
 * A data file's record count, known before its first run (docs/decisions/0066-row-counts-before-runs.md):
 * counted with DuckDB after an upload, or the first time an estimate needs it, and kept on the file.
 * `row_count_state` NULL: not counted yet; 'counted': `row_count` holds the records of the file read
 * as its name's ending tells (`row_count_format`); 'unknown': it cannot be counted cheaply (Excel, a
 * file over the bound, a read that failed or ran out of time), and is not tried again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').addColumn('row_count', 'bigint').execute();
  await db.schema.alterTable('files').addColumn('row_count_format', 'text').execute();
  await db.schema.alterTable('files').addColumn('row_count_state', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').dropColumn('row_count_state').execute();
  await db.schema.alterTable('files').dropColumn('row_count_format').execute();
  await db.schema.alterTable('files').dropColumn('row_count').execute();
}
