import { Kysely, Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db, Dialect } from './database';
import * as m001 from './migrations/001_users_and_sessions';
import * as m002 from './migrations/002_files';
import * as m003 from './migrations/003_workflows';
import * as m004 from './migrations/004_step_infos';
import * as m005 from './migrations/005_history_deltas';
import * as m006 from './migrations/006_published_version';
import * as m007 from './migrations/007_runs';
import * as m008 from './migrations/008_user_model_settings';
import * as m009 from './migrations/009_conversations';
import * as m010 from './migrations/010_ai_answer_cache';
import * as m011 from './migrations/011_deferred_datasets';
import * as m012 from './migrations/012_credits_and_payments';
import * as m013 from './migrations/013_support_beta_videos';
import * as m015 from './migrations/015_payment_return_paths';
import * as m016 from './migrations/016_run_state_reasons';
import * as m017 from './migrations/017_file_row_counts';
import * as m018 from './migrations/018_step_run_calls';
import * as m019 from './migrations/019_visitor_beta_requests';
import * as m020 from './migrations/020_run_started_by';

/**
 * Migrations are code, listed here in order, so the compiled server and the tests run the same
 * set without reading folders at run time. Each one gets the dialect for the few column types
 * that differ (timestamps).
 */
type DialectMigration = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void>; down?(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

const migrations: Record<string, DialectMigration> = {
  '001_users_and_sessions': m001,
  '002_files': m002,
  '003_workflows': m003,
  '004_step_infos': m004,
  '005_history_deltas': m005,
  '006_published_version': m006,
  '007_runs': m007,
  '008_user_model_settings': m008,
  '009_conversations': m009,
  '010_ai_answer_cache': m010,
  '011_deferred_datasets': m011,
  '012_credits_and_payments': m012,
  '013_support_beta_videos': m013,
  '015_payment_return_paths': m015,
  '016_run_state_reasons': m016,
  '017_file_row_counts': m017,
  '018_step_run_calls': m018,
  '019_visitor_beta_requests': m019,
  '020_run_started_by': m020,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(migrations).map(([name, m]) => [
        name,
        { up: (db: Kysely<unknown>) => m.up(db, this.dialect), down: m.down && ((db: Kysely<unknown>) => m.down!(db, this.dialect)) },
      ]),
    );
  }
}

/**
 * The migrator over this list (tests use it to build a database as an older version left it).
 * On PostgreSQL it is pinned to the schema we work in: left unpinned, Kysely looks for its
 * migration tables in every schema of the database, so another schema holding them (another app,
 * a parallel test) makes it skip creating ours and fail with "kysely_migration_lock does not exist".
 */
export async function migratorFor(db: Db | Kysely<unknown>, dialect: Dialect): Promise<Migrator> {
  const schema = dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema : undefined;
  return new Migrator({ db, provider: new StaticProvider(dialect), migrationTableSchema: schema });
}

/** Applies every pending migration; Kysely's lock table makes concurrent starts safe. */
export async function migrateToLatest(db: Db, dialect: Dialect): Promise<void> {
  const { error, results } = await (await migratorFor(db, dialect)).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
