import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestampType } from './column-types';

/**
 * The step catalogue itself is code (engine/step-types); the database holds only what changes at
 * run time: admins' display overrides, and the embeddings computed for search by meaning.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestampType(dialect);

  await db.schema
    .createTable('step_info_overrides')
    .addColumn('step_type_id', 'text', (c) => c.primaryKey())
    .addColumn('category', 'text')
    /** JSON string[] or null (the built-in tags). */
    .addColumn('tags', 'text')
    /** JSON {"en": {"name", "description"}, "cn": {…}}: per-language texts, each field optional. */
    .addColumn('texts', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('step_info_embeddings')
    .addColumn('step_type_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    /** SHA-256 of the text the vector was made from: a changed text means a stale vector. */
    .addColumn('text_hash', 'text', (c) => c.notNull())
    .addColumn('dimensions', 'integer', (c) => c.notNull())
    /** JSON number[]: a few dozen rows, read whole, so no vector type is needed. */
    .addColumn('vector', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('step_info_embeddings_pk', ['step_type_id', 'model'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('step_info_embeddings').execute();
  await db.schema.dropTable('step_info_overrides').execute();
}
