import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type DatabaseHandle } from './database';
import { StatementCache } from './sqlite-dialect';

interface TestTables {
  notes: { id: number; text: string };
}

describe('SQLite connections', () => {
  let dir: string;
  let file: string;
  let handle: DatabaseHandle;
  let db: Kysely<TestTables>;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-db-'));
    file = path.join(dir, 'stepwise.db');
    handle = openDatabase({ databaseUrl: null, sqliteFile: file });
    db = handle.db as unknown as Kysely<TestTables>;
    await sql`create table notes (id integer primary key, text text not null)`.execute(db);
    await db.insertInto('notes').values({ id: 1, text: 'committed' }).execute();
  });

  afterEach(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates the database file readable by its owner only, in WAL mode', async () => {
    if (process.platform === 'win32') return;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(`${file}-wal`).mode & 0o077).toBe(0);
    const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    expect(rows[0].journal_mode).toBe('wal');
  });

  it('tightens an existing world-readable database file', async () => {
    if (process.platform === 'win32') return;
    const older = path.join(dir, 'older.db');
    new BetterSqlite3(older).close();
    fs.chmodSync(older, 0o644);
    const other = openDatabase({ databaseUrl: null, sqliteFile: older });
    await other.close();
    expect(fs.statSync(older).mode & 0o777).toBe(0o600);
  });

  it('answers a read outside a transaction while a transaction holds the writer, with the last committed state', async () => {
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let inserted!: () => void;
    const insertDone = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 2, text: 'not yet committed' }).execute();
      // The transaction sees its own write.
      expect(await trx.selectFrom('notes').select('id').orderBy('id').execute()).toEqual([{ id: 1 }, { id: 2 }]);
      inserted();
      await held;
    });
    await insertDone;

    // With one connection behind a mutex this would wait for the transaction, which waits for us.
    expect(await db.selectFrom('notes').select('text').orderBy('id').execute()).toEqual([{ text: 'committed' }]);

    finish();
    await transaction;
    expect(await db.selectFrom('notes').select('id').orderBy('id').execute()).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('queues a write outside a transaction behind the open one, in order', async () => {
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const order: string[] = [];
    const transaction = db.transaction().execute(async (trx) => {
      await trx.updateTable('notes').set({ text: 'by the transaction' }).where('id', '=', 1).execute();
      await held;
      order.push('transaction');
    });
    const write = db
      .updateTable('notes')
      .set({ text: 'by the later write' })
      .where('id', '=', 1)
      .execute()
      .then(() => order.push('write'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    finish();
    await Promise.all([transaction, write]);
    expect(order).toEqual(['transaction', 'write']);
    expect(await db.selectFrom('notes').select('text').where('id', '=', 1).executeTakeFirst()).toEqual({ text: 'by the later write' });
  });

  it('answers rows with the columns a statement has now, also after the table changed', async () => {
    expect(await db.selectFrom('notes').selectAll().execute()).toEqual([{ id: 1, text: 'committed' }]);
    await sql`alter table notes add column pinned integer not null default 0`.execute(db);
    expect(await db.selectFrom('notes').selectAll().execute()).toEqual([{ id: 1, text: 'committed', pinned: 0 }]);
    await db.transaction().execute(async (trx) => {
      expect(await trx.selectFrom('notes').selectAll().execute()).toEqual([{ id: 1, text: 'committed', pinned: 0 }]);
    });
    expect(await db.selectFrom('notes').select(['text as a', 'id as b']).execute()).toEqual([{ a: 'committed', b: 1 }]);
    // The same number of columns under another name.
    await sql`alter table notes rename column pinned to starred`.execute(db);
    expect(await db.selectFrom('notes').selectAll().execute()).toEqual([{ id: 1, text: 'committed', starred: 0 }]);
  });

  it('rolls back a failed transaction and frees the writer for the next one', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ id: 3, text: 'rolled back' }).execute();
        await trx.insertInto('notes').values({ id: 1, text: 'duplicate id' }).execute();
      }),
    ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    await db.transaction().execute((trx) => trx.insertInto('notes').values({ id: 4, text: 'next' }).execute());
    expect(await db.selectFrom('notes').select('id').orderBy('id').execute()).toEqual([{ id: 1 }, { id: 4 }]);
  });
});

describe('StatementCache', () => {
  it('prepares each SQL text once and keeps at most `max` statements', () => {
    const sqlite = new BetterSqlite3(':memory:');
    const prepare = jest.spyOn(sqlite, 'prepare');
    const cache = new StatementCache(sqlite, 2);
    const first = cache.get('select 1');
    expect(cache.get('select 1')).toBe(first);
    expect(prepare).toHaveBeenCalledTimes(1);
    cache.get('select 2');
    cache.get('select 1'); // now the most recently used
    cache.get('select 3'); // pushes out 'select 2'
    expect(cache.size).toBe(2);
    expect(cache.get('select 1')).toBe(first);
    cache.get('select 2');
    expect(prepare).toHaveBeenCalledTimes(4);
    sqlite.close();
  });
});
