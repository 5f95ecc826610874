import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
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
