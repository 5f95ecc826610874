import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestampType } from './column-types';
import { SEED_VIDEOS } from './seed-videos';

/**
 * Contact queries and support replies, the beta programme, tutorial videos (issue 11):
 *
 *   users ─< contact_queries ─< contact_replies (from the user or from support staff)
 *   users ─< beta_interest_requests
 *   users ─< invitation_codes (created by an admin) ─< invitation_code_uses >─ users (one use per user)
 *   videos (public, managed by admins; seeded with a few entries in each language)
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestampType(dialect);

  await db.schema
    .createTable('contact_queries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    // general | billing | technical | feature | account
    .addColumn('category', 'text', (c) => c.notNull())
    // open | answered | closed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_queries_user_created').on('contact_queries').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('contact_queries_status_created').on('contact_queries').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('contact_replies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('query_id', 'text', (c) => c.notNull().references('contact_queries.id').onDelete('cascade'))
    // Null once the author's account is gone; the reply stays with the query.
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    // user | support: who wrote it, as the reader sees it
    .addColumn('author_role', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_replies_query_created').on('contact_replies').columns(['query_id', 'created_at']).execute();

  await db.schema
    .createTable('beta_interest_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('use_case', 'text', (c) => c.notNull())
    .addColumn('company', 'text')
    .addColumn('heard_from', 'text')
    // pending | invited
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invitation_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('max_uses', 'integer', (c) => c.notNull())
    .addColumn('expires_at', ts)
    .addColumn('note', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('revoked_at', ts)
    .execute();
  await db.schema.createIndex('invitation_codes_created').on('invitation_codes').column('created_at').execute();

  await db.schema
    .createTable('invitation_code_uses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code_id', 'text', (c) => c.notNull().references('invitation_codes.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invitation_code_uses_code').on('invitation_code_uses').column('code_id').execute();

  await db.schema
    .createTable('videos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('thumbnail_url', 'text')
    .addColumn('duration_seconds', 'integer', (c) => c.notNull())
    // getting_started | workflows | datasets | agents | billing
    .addColumn('category', 'text', (c) => c.notNull())
    // en | cn
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    // published | hidden (text, not boolean: SQLite and PostgreSQL read it back the same)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('videos_locale_category_position').on('videos').columns(['locale', 'category', 'position']).execute();

  const now = new Date().toISOString();
  await (db as Kysely<{ videos: Record<string, unknown> }>)
    .insertInto('videos')
    .values(SEED_VIDEOS.map((v, i) => ({ ...v, position: i, status: 'published', created_at: now, updated_at: now })))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('videos').execute();
  await db.schema.dropTable('invitation_code_uses').execute();
  await db.schema.dropTable('invitation_codes').execute();
  await db.schema.dropTable('beta_interest_requests').execute();
  await db.schema.dropTable('contact_replies').execute();
  await db.schema.dropTable('contact_queries').execute();
}
