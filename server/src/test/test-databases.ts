import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';

/**
 * A migrated database for each test app without running the migrations for each: they run once
 * into a template, and every test app starts from a copy of it (a file copy on SQLite,
 * `CREATE DATABASE … TEMPLATE` on PostgreSQL, ~20 ms either way). The app still runs
 * migrateToLatest at start, as in production, and finds nothing left to do.
 *
 * A template is named after the migrations' source text, so it is made again whenever a migration
 * changes, and a template made by an earlier run (or by the other Jest worker) is reused as is.
 */

const MIGRATIONS_DIR = path.resolve(__dirname, '../db/migrations');

/** A hash of every file the migrations are made of: migrate.ts and the migrations folder. */
function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  const files = [
    path.resolve(MIGRATIONS_DIR, '../migrate.ts'),
    ...fs
      .readdirSync(MIGRATIONS_DIR)
      .sort()
      .map((name) => path.join(MIGRATIONS_DIR, name)),
  ];
  for (const file of files) {
    if (file.endsWith('.test.ts') || !fs.statSync(file).isFile()) continue;
    hash.update(path.basename(file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

let fingerprint: string | undefined;
const templateKey = () => (fingerprint ??= migrationsFingerprint());

// ---- SQLite: a file copy ----

let sqliteTemplate: Promise<string> | undefined;

/** The migrated SQLite template's path, made now when it is missing. */
export function prepareSqliteTemplate(): Promise<string> {
  return (sqliteTemplate ??= makeSqliteTemplate().catch((err: unknown) => {
    sqliteTemplate = undefined;
    throw err;
  }));
}

/** Writes a migrated SQLite database to `file` (a copy of the template). */
export async function copySqliteTemplate(file: string): Promise<void> {
  const template = await prepareSqliteTemplate();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(template, file);
  // The database holds password hashes: 0600, as openDatabase makes it.
  fs.chmodSync(file, 0o600);
}

async function makeSqliteTemplate(): Promise<string> {
  const dir = path.join(os.tmpdir(), 'stepwise-test-templates');
  const template = path.join(dir, `sqlite-${templateKey()}.db`);
  if (fs.existsSync(template)) return template;
  // Built under a name of its own and renamed into place: the other worker may be building the
  // same template at this moment, and a reader must never copy a half-migrated file.
  const building = path.join(dir, `building-${process.pid}-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(building, { recursive: true });
  try {
    const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(building, 'stepwise.db') });
    await migrateToLatest(handle.db, handle.dialect);
    // Closing the last connection checkpoints the WAL into the file and removes it.
    await handle.close();
    fs.renameSync(path.join(building, 'stepwise.db'), template);
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
  return template;
}

// ---- PostgreSQL: CREATE DATABASE … TEMPLATE ----

/** A connection to the server's maintenance database (TEST_DATABASE_URL) for CREATE/DROP DATABASE. */
async function withPgClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** TEST_DATABASE_URL with another database name. */
function pgUrlFor(database: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

let pgTemplate: Promise<string> | undefined;

/** The migrated PostgreSQL template's name, made now when it is missing. */
export function preparePgTemplate(): Promise<string> {
  return (pgTemplate ??= makePgTemplate().catch((err: unknown) => {
    pgTemplate = undefined;
    throw err;
  }));
}

async function makePgTemplate(): Promise<string> {
  const template = `stepwise_template_${templateKey()}`;
  await withPgClient(async (client) => {
    // One maker per template across processes; the others wait here and then find it made.
    const lock = Number.parseInt(templateKey().slice(0, 8), 16);
    await client.query('SELECT pg_advisory_lock($1)', [lock]);
    try {
      const made = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (made.rowCount) return;
      const building = `${template}_building`;
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(building)} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${quoteIdent(building)}`);
      const handle = openDatabase({ databaseUrl: pgUrlFor(building), sqliteFile: '' });
      try {
        await migrateToLatest(handle.db, handle.dialect);
      } finally {
        await handle.close();
      }
      await client.query(`ALTER DATABASE ${quoteIdent(building)} RENAME TO ${quoteIdent(template)}`);
      await client.query(`ALTER DATABASE ${quoteIdent(template)} IS_TEMPLATE true`);
      // When it was made, for the clean-up below (PostgreSQL keeps no creation time).
      await client.query(`COMMENT ON DATABASE ${quoteIdent(template)} IS ${quoteLiteral(`made ${new Date().toISOString()}`)}`);
      // Templates of other migrations, a day old: nobody will copy them again. Younger ones may
      // belong to another checkout testing on the same server right now (another branch's migrations).
      const stale = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database d
          WHERE datname LIKE 'stepwise\\_template\\_%' AND datname <> $1 AND datname NOT LIKE '%\\_building'
            AND coalesce(substring(shobj_description(d.oid, 'pg_database') from '^made (.*)$'), '1970-01-01')::timestamptz < now() - interval '1 day'`,
        [template],
      );
      for (const { datname } of stale.rows) {
        await client.query(`ALTER DATABASE ${quoteIdent(datname)} IS_TEMPLATE false`);
        await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [lock]);
    }
  });
  return template;
}

export interface TestPgDatabase {
  /** The database's name (stepwise_test_…). */
  name: string;
  /** A postgres:// URL to it: the test app's DATABASE_URL. */
  url: string;
  drop(): Promise<void>;
}

/** A new PostgreSQL database for one test app, migrated unless `migrated` is false; drop() removes it. */
export async function createPgDatabase({ migrated = true } = {}): Promise<TestPgDatabase> {
  const template = migrated ? await preparePgTemplate() : null;
  const name = `stepwise_test_${randomBytes(6).toString('hex')}`;
  await withPgClient((client) => client.query(`CREATE DATABASE ${quoteIdent(name)}${template ? ` TEMPLATE ${quoteIdent(template)}` : ''}`));
  return {
    name,
    url: pgUrlFor(name),
    drop: () => dropPgDatabase(name),
  };
}

/**
 * Drops a test's database. A plain DROP first: PostgreSQL waits (up to 5 s) for sessions that are
 * closing, such as the ones a closed app's pool has just let go (pg's pool.end() resolves before
 * their sockets are shut, and FORCE would cut them off mid-goodbye with an error nobody listens
 * to). FORCE only when sessions stay: a process the test started and killed, or still running.
 */
async function dropPgDatabase(name: string): Promise<void> {
  await withPgClient(async (client) => {
    try {
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)}`);
    } catch (err) {
      if ((err as { code?: string }).code !== '55006') throw err;
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    }
  });
}
