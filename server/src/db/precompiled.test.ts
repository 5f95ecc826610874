import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from './database';
import { precompile } from './precompiled';

interface TestTables {
  notes: { id: number; owner: string; text: string };
}

describe('precompile', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let db: Kysely<TestTables>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-precompiled-'));
    handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'test.db') });
    db = handle.db as unknown as Kysely<TestTables>;
    await sql`create table notes (id integer primary key, owner text not null, text text not null)`.execute(db);
    await db
      .insertInto('notes')
      .values([
        { id: 1, owner: 'ada', text: 'one' },
        { id: 2, owner: 'ada', text: 'two' },
        { id: 3, owner: 'bob', text: 'three' },
      ])
      .execute();
  });

  afterAll(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('builds and compiles once, and runs with each call’s values in their places', async () => {
    const build = jest.fn((q: Kysely<TestTables>, v: Record<'owner' | 'other' | 'min', string>) =>
      q
        .selectFrom('notes')
        .select(['id', 'text'])
        .where((eb) => eb.or([eb('owner', '=', v.owner), eb('text', '=', v.other)]))
        .where('id', '>=', v.min as unknown as number)
        .where('text', '!=', 'never')
        .orderBy('id'),
    );
    const notes = precompile(db, ['owner', 'other', 'min'], build);
    expect(await notes({ owner: 'ada', other: 'three', min: 1 })).toEqual([
      { id: 1, text: 'one' },
      { id: 2, text: 'two' },
      { id: 3, text: 'three' },
    ]);
    expect(await notes({ owner: 'bob', other: 'one', min: 2 })).toEqual([{ id: 3, text: 'three' }]);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('refuses a value name the query does not use', async () => {
    const notes = precompile(db, ['owner', 'unused'], (q, v) => q.selectFrom('notes').selectAll().where('owner', '=', v.owner));
    await expect(notes({ owner: 'ada', unused: 1 })).rejects.toThrow(/does not use unused/);
  });
});

const onPostgres = process.env.STEPWISE_TEST_DB === 'postgres';

(onPostgres ? describe : describe.skip)('precompile on PostgreSQL', () => {
  const schema = `test_precompiled_${process.pid}_${Date.now()}`;
  let admin: pg.Client;
  let handle: DatabaseHandle;
  let db: Kysely<TestTables>;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    handle = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, sqliteFile: '', pgSchema: schema });
    db = handle.db as unknown as Kysely<TestTables>;
    await sql`create table notes (id integer primary key, owner text not null, text text not null)`.execute(db);
    await db
      .insertInto('notes')
      .values([
        { id: 1, owner: 'ada', text: 'one' },
        { id: 2, owner: 'bob', text: 'two' },
      ])
      .execute();
  });

  afterAll(async () => {
    await handle.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  });

  it('runs as a named statement that the connection prepared once', async () => {
    const byOwner = precompile(db, ['owner'], (q, v) => q.selectFrom('notes').select('text').where('owner', '=', v.owner).orderBy('id'));
    expect(await byOwner({ owner: 'ada' })).toEqual([{ text: 'one' }]);
    expect(await byOwner({ owner: 'bob' })).toEqual([{ text: 'two' }]);
    // Queries one after the other reuse the pool's one idle connection.
    const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements where statement like '%from "notes"%'`.execute(db);
    expect(rows).toHaveLength(1);
    expect(rows[0].name).toMatch(/^stepwise_/);
  });
});
