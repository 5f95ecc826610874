import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestampType } from './column-types';

/**
 * A visitor without an account may ask for an invitation code (issue 11/13: in invite-only mode
 * nobody could, since asking needed an account and an account needed a code). Such a request has
 * no user: it carries the email to invite, an optional name and the language to write in.
 *
 *   beta_interest_requests.user_id  now nullable (null: a visitor's request)
 *   beta_interest_requests.email    a visitor's email, lowercased; unique (one request per email)
 *   beta_interest_requests.name     a visitor's name, if given
 *   beta_interest_requests.locale   en | cn: the invitation email's language
 *
 * SQLite cannot drop a NOT NULL, so there the table is rebuilt (nothing references it).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await db.schema
      .alterTable('beta_interest_requests')
      .alterColumn('user_id', (c) => c.dropNotNull())
      .execute();
    await db.schema
      .alterTable('beta_interest_requests')
      .addColumn('email', 'text', (c) => c.unique())
      .execute();
    await db.schema.alterTable('beta_interest_requests').addColumn('name', 'text').execute();
    await db.schema.alterTable('beta_interest_requests').addColumn('locale', 'text').execute();
  } else {
    await createTable(db, 'beta_interest_requests_new', dialect);
    await sql`insert into beta_interest_requests_new (id, user_id, use_case, company, heard_from, status, created_at, updated_at)
      select id, user_id, use_case, company, heard_from, status, created_at, updated_at from beta_interest_requests`.execute(db);
    await db.schema.dropTable('beta_interest_requests').execute();
    await db.schema.alterTable('beta_interest_requests_new').renameTo('beta_interest_requests').execute();
  }
  await db.schema.createIndex('beta_interest_requests_created').on('beta_interest_requests').column('created_at').execute();
}

async function createTable(db: Kysely<unknown>, name: string, dialect: Dialect): Promise<void> {
  const ts = timestampType(dialect);
  await db.schema
    .createTable(name)
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.unique().references('users.id').onDelete('cascade'))
    .addColumn('use_case', 'text', (c) => c.notNull())
    .addColumn('company', 'text')
    .addColumn('heard_from', 'text')
    // pending | invited
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.unique())
    .addColumn('name', 'text')
    .addColumn('locale', 'text')
    .execute();
}

/** Visitors' requests go (they have no user to keep them for). */
export async function down(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.dropIndex('beta_interest_requests_created').execute();
  await sql`delete from beta_interest_requests where user_id is null`.execute(db);
  if (dialect === 'postgres') {
    await db.schema.alterTable('beta_interest_requests').dropColumn('locale').execute();
    await db.schema.alterTable('beta_interest_requests').dropColumn('name').execute();
    await db.schema.alterTable('beta_interest_requests').dropColumn('email').execute();
    await db.schema
      .alterTable('beta_interest_requests')
      .alterColumn('user_id', (c) => c.setNotNull())
      .execute();
    return;
  }
  const ts = timestampType(dialect);
  await db.schema
    .createTable('beta_interest_requests_old')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('use_case', 'text', (c) => c.notNull())
    .addColumn('company', 'text')
    .addColumn('heard_from', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await sql`insert into beta_interest_requests_old select id, user_id, use_case, company, heard_from, status, created_at, updated_at from beta_interest_requests`.execute(
    db,
  );
  await db.schema.dropTable('beta_interest_requests').execute();
  await db.schema.alterTable('beta_interest_requests_old').renameTo('beta_interest_requests').execute();
}
