import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, type PostgresCursor, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { preparedStatementNames } from './precompiled';
import type { Database } from './schema';
import { closeAll, SqliteRoutingDialect } from './sqlite-dialect';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

// PostgreSQL answers timestamptz as Date and bigint (count(*)) as string; SQLite answers text and
// numbers. Parse both to the SQLite shapes so rows look the same whichever database runs.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => new Date(value).toISOString());
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface DatabaseOptions {
  /** postgres://… or null for SQLite */
  databaseUrl: string | null;
  /** SQLite file, used when databaseUrl is null */
  sqliteFile: string;
  /** PostgreSQL schema to work in (the benchmarks use one of their own; tests get a database each) */
  pgSchema?: string;
}

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const { writer, reader } = openSqlite(options.sqliteFile);
  const db = new Kysely<Database>({ dialect: new SqliteRoutingDialect({ writer, reader }) });
  // Kysely destroys a driver only once it ran a query; the connections are open from here on.
  const close = async () => {
    await db.destroy();
    closeAll({ writer, reader });
  };
  return { db, dialect: 'sqlite', close };
}

/**
 * A pool whose clients run the precompiled queries (`db/precompiled.ts`) as named statements, which
 * PostgreSQL parses and plans once per connection; every other query as Kysely sends it. One
 * wrapper per client, since Kysely keeps its connection objects by client.
 */
function withPreparedStatements(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    query: ((textOrCursor: string | PostgresCursor<unknown>, values?: readonly unknown[]) => {
      if (typeof textOrCursor !== 'string') return client.query(textOrCursor as unknown as pg.Submittable);
      const name = preparedStatementNames.get(textOrCursor);
      return name ? client.query({ name, text: textOrCursor, values: values as unknown[] }) : client.query(textOrCursor, values as unknown[]);
    }) as unknown as PostgresPoolClient['query'],
    release: () => client.release(),
  });
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/**
 * The write connection and a read-only one on the same file (see SqliteRoutingDialect). The file
 * is created 0600 (it holds password hashes and sessions), and an older world-readable one is
 * tightened; SQLite gives its -wal and -shm files the database file's mode.
 */
function openSqlite(file: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  const writer = new BetterSqlite3(file);
  // WAL lets readers run while a write is in progress; foreign keys are off by default in SQLite.
  writer.pragma('journal_mode = WAL');
  // In WAL mode NORMAL syncs at checkpoints, not at every commit: a power cut may lose the last
  // commits but never corrupts the file (a process crash loses nothing).
  writer.pragma('synchronous = NORMAL');
  writer.pragma('foreign_keys = ON');
  // Another process (the worker, the CLI) may hold the write lock for a moment.
  writer.pragma('busy_timeout = 5000');
  const reader = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  return { writer, reader };
}
