import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { workflowClient } from '../../test/workflow-helpers';
import { migratorFor } from '../migrate';

/**
 * Migration 016 on the real database: runs and step runs left paused, failed or cancelled by an
 * older version get the reason their other columns tell (a credit pause, a failure, else their
 * owner's doing); the others none; and it is undone cleanly.
 */
describe('migration 016: state reasons of runs and step runs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives the runs an older version left their reasons, and is undone and applied again', async () => {
    const owner = await signedInUser(t.app);
    const workflowId = (await workflowClient(t.app, owner.auth).createWorkflow('Old runs')).id as string;
    const migrator = await migratorFor(t.app.db, t.config.databaseUrl ? 'postgres' : 'sqlite');
    const down = await migrator.migrateTo('015_payment_return_paths');
    expect(down.results?.at(-1)).toMatchObject({ migrationName: '016_run_state_reasons', direction: 'Down', status: 'Success' });

    // Through an untyped view: the typed one has the new column.
    const db = t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = new Date().toISOString();
    const runs: Record<string, string> = {};
    const run = async (name: string, state: string, pauseReason: string | null, stepStates: string[]) => {
      const id = randomUUID();
      runs[name] = id;
      await db
        .insertInto('workflow_runs')
        .values({
          id,
          workflow_id: workflowId,
          user_id: owner.user.id,
          workflow_version: 1,
          snapshot: '{"steps":[],"variables":[],"external":{}}',
          mode: 'all',
          state,
          pause_reason: pauseReason,
          error: state === 'failed' ? '{"key":"server.runs.stepFailed","values":{}}' : null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      for (const [i, s] of stepStates.entries())
        await db
          .insertInto('step_runs')
          .values({
            id: `${id}-${i}`,
            run_id: id,
            step_id: `s${i}`,
            step_type: 'filter',
            params_hash: 'p',
            cache_key: 'k',
            input_dataset_ids: '[]',
            state: s,
            created_at: now,
            updated_at: now,
          })
          .execute();
    };
    await run('credits', 'paused', 'credits', ['succeeded', 'paused', 'queued']);
    await run('paused', 'paused', null, ['paused']);
    await run('cancelled', 'cancelled', null, ['cancelled', 'cancelled']);
    await run('failed', 'failed', null, ['failed', 'skipped']);
    await run('succeeded', 'succeeded', null, ['succeeded']);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const reasons = async (name: string) => {
      const r = await t.app.db.selectFrom('workflow_runs').select('state_reason').where('id', '=', runs[name]).executeTakeFirstOrThrow();
      const steps = await t.app.db.selectFrom('step_runs').select(['id', 'state_reason']).where('run_id', '=', runs[name]).orderBy('id').execute();
      return [r.state_reason, steps.map((s) => s.state_reason)];
    };
    expect(await reasons('credits')).toEqual(['credits', [null, 'credits', null]]);
    expect(await reasons('paused')).toEqual(['by_user', ['by_user']]);
    expect(await reasons('cancelled')).toEqual(['by_user', ['by_user', 'by_user']]);
    expect(await reasons('failed')).toEqual(['error', ['error', null]]);
    expect(await reasons('succeeded')).toEqual([null, [null]]);
  });
});
