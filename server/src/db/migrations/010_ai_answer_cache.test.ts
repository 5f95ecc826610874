import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { Db } from '../database';
import { migratorFor } from '../migrate';

/**
 * What the AI answer cache promises the engine, on the real database (SQLite here, PostgreSQL in
 * server-postgres): one answer per owner and key, the same key free for another owner, answers
 * gone with their owner, and the migration undone cleanly.
 */
describe('migration 010: the AI answer cache', () => {
  let t: TestApp;
  let db: Db;
  const now = new Date().toISOString();

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.db;
  });
  afterAll(() => t.close());

  async function user(): Promise<string> {
    const id = randomUUID();
    await db
      .insertInto('users')
      .values({
        id,
        email: `${id}@example.com`,
        name: 'Ada',
        password_hash: 'x',
        role: 'user',
        locale: 'en',
        theme: 'system',
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }
  const entry = (user_id: string, cache_key: string, answer = '"yes"') => ({
    user_id,
    cache_key,
    model_id: 'openai-compatible:m@host',
    answer,
    created_at: now,
  });
  // Only the columns without a default, through an untyped view (as 007_runs.test.ts does).
  const loose = () => db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const outcome = (insert: Promise<unknown>) =>
    insert.then(
      () => 'accepted',
      (err: unknown) => String((err as { message?: unknown } | null)?.message ?? err),
    );

  it('keeps one answer per owner and key; another owner may hold the same key', async () => {
    const [a, b] = [await user(), await user()];
    await loose().insertInto('ai_answer_cache').values(entry(a, 'k')).execute();
    expect(
      await outcome(
        loose()
          .insertInto('ai_answer_cache')
          .values(entry(a, 'k', '"no"'))
          .execute(),
      ),
    ).toMatch(/unique|duplicate/i);
    expect(
      await outcome(
        loose()
          .insertInto('ai_answer_cache')
          .values(entry(b, 'k', '"no"'))
          .execute(),
      ),
    ).toBe('accepted');
    // Nobody paid for an answer stored without tokens.
    expect(
      await db.selectFrom('ai_answer_cache').select(['step_run_id', 'record_id', 'tokens_in', 'tokens_out']).where('user_id', '=', b).executeTakeFirstOrThrow(),
    ).toEqual({ step_run_id: null, record_id: null, tokens_in: 0, tokens_out: 0 });
    // An owner that does not exist cannot hold answers.
    expect(await outcome(loose().insertInto('ai_answer_cache').values(entry(randomUUID(), 'k')).execute())).toMatch(/foreign key/i);
  });

  it('deleting a user deletes their answers', async () => {
    const a = await user();
    await loose()
      .insertInto('ai_answer_cache')
      .values([entry(a, 'k1'), entry(a, 'k2')])
      .execute();
    await db.deleteFrom('users').where('id', '=', a).execute();
    expect(await db.selectFrom('ai_answer_cache').select('cache_key').where('user_id', '=', a).execute()).toEqual([]);
  });

  it('is undone by its down migration and applied again', async () => {
    const migrator = await migratorFor(db, t.config.databaseUrl ? 'postgres' : 'sqlite');
    // Down to the one before it (later migrations, if any, are undone first).
    const down = await migrator.migrateTo('009_conversations');
    expect(down.error).toBeUndefined();
    expect(down.results?.at(-1)).toMatchObject({ migrationName: '010_ai_answer_cache', direction: 'Down', status: 'Success' });
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    expect(await db.selectFrom('ai_answer_cache').select('cache_key').execute()).toEqual([]);
  });
});
