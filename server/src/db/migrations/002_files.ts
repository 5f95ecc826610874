import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestampType } from './column-types';

/**
 * Folders, files, direct uploads in progress, and the usage events billing prices (issue 6/6).
 *
 * A NULL parent is the user's root. NULLs never collide in a unique index (on SQLite and
 * PostgreSQL alike), so names at the root are kept unique by a second, partial index
 * (`WHERE parent_id IS NULL`), which both databases support.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestampType(dialect);

  await db.schema
    .createTable('folders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('folders.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('folders_name_in_parent').on('folders').columns(['owner_id', 'parent_id', 'name']).unique().execute();
  await db.schema.createIndex('folders_name_at_root').on('folders').columns(['owner_id', 'name']).unique().where(sql.ref('parent_id'), 'is', null).execute();
  await db.schema.createIndex('folders_parent_id').on('folders').column('parent_id').execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('folder_id', 'text', (c) => c.references('folders.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('checksum_sha256', 'text')
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    // 'pending' while the bytes stream in (the name is already reserved), 'ready' after.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_name_in_folder').on('files').columns(['owner_id', 'folder_id', 'name']).unique().execute();
  await db.schema.createIndex('files_name_at_root').on('files').columns(['owner_id', 'name']).unique().where(sql.ref('folder_id'), 'is', null).execute();
  await db.schema.createIndex('files_folder_id').on('files').column('folder_id').execute();
  await db.schema.createIndex('files_status_updated').on('files').columns(['status', 'updated_at']).execute();

  await db.schema
    .createTable('pending_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // No foreign key: the folder may be deleted meanwhile; confirming then answers 404.
    .addColumn('folder_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('checksum_sha256', 'text')
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('multipart_upload_id', 'text')
    .addColumn('part_size', 'bigint')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pending_uploads_owner').on('pending_uploads').column('owner_id').execute();
  await db.schema.createIndex('pending_uploads_expires_at').on('pending_uploads').column('expires_at').execute();

  // Append-only; no foreign key, so billing history outlives what it describes.
  await db.schema
    .createTable('usage_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('ref_id', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('usage_events_user_created').on('usage_events').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_events').execute();
  await db.schema.dropTable('pending_uploads').execute();
  await db.schema.dropTable('files').execute();
  await db.schema.dropTable('folders').execute();
}
