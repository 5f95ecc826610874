import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';
import { migratorFor } from '../migrate';

/**
 * Migration 020 on the real database: runs an older version left read `user` (who started them was
 * not recorded), a new run may say `agent`, and it is undone and applied again cleanly.
 */
describe('migration 020: who started a run', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("gives older runs 'user', keeps what a new run says, and is undone and applied again", async () => {
    const owner = await signedInUser(t.app);
    const workflowId = (await workflowClient(t.app, owner.auth).createWorkflow('Old runs')).id as string;
    const migrator = await migratorFor(t.app.db, t.config.databaseUrl ? 'postgres' : 'sqlite');
    const down = await migrator.migrateTo('019_visitor_beta_requests');
    expect(down.results?.at(-1)).toMatchObject({ migrationName: '020_run_started_by', direction: 'Down', status: 'Success' });

    // Through an untyped view: the typed one has the new column.
    const db = t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = new Date().toISOString();
    const run = (id: string, extra: Record<string, unknown> = {}) =>
      db
        .insertInto('workflow_runs')
        .values({
          id,
          workflow_id: workflowId,
          user_id: owner.user.id,
          workflow_version: 1,
          snapshot: '{"steps":[],"variables":[],"external":{}}',
          mode: 'all',
          state: 'succeeded',
          created_at: now,
          updated_at: now,
          ...extra,
        })
        .execute();
    const old = randomUUID();
    await run(old);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const fresh = randomUUID();
    await run(fresh, { started_by: 'agent' });
    const startedBy = async (id: string) =>
      (await t.app.db.selectFrom('workflow_runs').select('started_by').where('id', '=', id).executeTakeFirstOrThrow()).started_by;
    expect(await startedBy(old)).toBe('user');
    expect(await startedBy(fresh)).toBe('agent');

    expect((await migrator.migrateTo('019_visitor_beta_requests')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await startedBy(fresh)).toBe('user');
  });
});
