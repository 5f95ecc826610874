import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { Kysely } from 'kysely';
import type { Db } from '../database';

/**
 * What the run tables promise the engine, on the real database (SQLite here, PostgreSQL in
 * server-postgres): a batch number is written once per step run, a step once per run, event
 * numbers once per run; deleting a workflow takes its runs and everything under them, but the
 * datasets they wrote stay with their owner.
 */
describe('migration 007: runs, step runs, batches, datasets, compute jobs, run events', () => {
  let t: TestApp;
  let db: Db;
  const now = new Date().toISOString();

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.db;
  });
  afterAll(() => t.close());

  // Only the columns without a default: the point is what the database fills in (the typed code
  // writes every column, so schema.ts types these inserts as incomplete).
  // So these inserts go through an untyped view of the same database.
  const loose = () => db as unknown as Kysely<Record<string, Record<string, unknown>>>;

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

  /** A workflow with one run of one step, one batch, one event, one compute job and its output dataset. */
  async function runWithEverything() {
    const userId = await user();
    const workflowId = randomUUID();
    await loose().insertInto('workflows').values({ id: workflowId, owner_id: userId, name: 'W', created_at: now, updated_at: now }).execute();
    const runId = randomUUID();
    await db
      .insertInto('workflow_runs')
      .values({
        id: runId,
        workflow_id: workflowId,
        user_id: userId,
        workflow_version: 3,
        snapshot: '{}',
        mode: 'up_to',
        target_step_id: 's1',
        sample_size: 10,
        state: 'queued',
        started_by: 'user',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const stepRunId = randomUUID();
    await loose()
      .insertInto('step_runs')
      .values({
        id: stepRunId,
        run_id: runId,
        step_id: 's1',
        step_type: 'ai_prompt',
        params_hash: 'p',
        cache_key: 'k',
        input_dataset_ids: '[]',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await loose()
      .insertInto('step_run_batches')
      .values({ step_run_id: stepRunId, batch_no: 0, first_record: 0, record_count: 100, created_at: now, updated_at: now })
      .execute();
    await db.insertInto('run_events').values({ id: randomUUID(), run_id: runId, seq: 1, type: 'run.state', payload: '{}', created_at: now }).execute();
    await loose().insertInto('compute_jobs').values({ id: randomUUID(), step_run_id: stepRunId, queued_at: now }).execute();
    const parentId = randomUUID();
    const datasetId = randomUUID();
    await loose().insertInto('datasets').values({ id: parentId, user_id: userId, name: 'upload', storage_key: 'a', created_at: now }).execute();
    await loose()
      .insertInto('datasets')
      .values({ id: datasetId, user_id: userId, name: 'out', storage_key: 'b', step_run_id: stepRunId, created_at: now })
      .execute();
    await db.insertInto('dataset_parents').values({ dataset_id: datasetId, parent_id: parentId }).execute();
    await db.updateTable('step_runs').set({ output_dataset_id: datasetId }).where('id', '=', stepRunId).execute();
    return { userId, workflowId, runId, stepRunId, datasetId, parentId };
  }

  it('fills in the defaults a new run and step run start with', async () => {
    const { runId, stepRunId } = await runWithEverything();
    const run = await db.selectFrom('workflow_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    expect(run).toMatchObject({ mode: 'up_to', state: 'queued', sample_size: 10, started_at: null, ended_at: null, error: null });
    const step = await db.selectFrom('step_runs').selectAll().where('id', '=', stepRunId).executeTakeFirstOrThrow();
    expect(step).toMatchObject({ state: 'queued', type_version: 1, records_total: null, records_done: 0, records_failed: 0, attempt: 0 });
    const batch = await db.selectFrom('step_run_batches').selectAll().where('step_run_id', '=', stepRunId).executeTakeFirstOrThrow();
    expect(batch).toMatchObject({ state: 'queued', batch_no: 0, first_record: 0, record_count: 100, checkpoint: null, output_key: null });
    const job = await db.selectFrom('compute_jobs').selectAll().where('step_run_id', '=', stepRunId).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'queued', cpu_ms: 0, cost_micros: 0, log_lines: '[]', log_dropped: 0, attempt: 1 });
  });

  /** What the database answered an insert: 'accepted', or its error's message (whatever the error's class). */
  const outcome = (insert: Promise<unknown>) =>
    insert.then(
      () => 'accepted',
      (err: unknown) => String((err as { message?: unknown } | null)?.message ?? err),
    );

  it('refuses a second batch with the same number, a second step run of a step, a second event number', async () => {
    const { runId, stepRunId } = await runWithEverything();
    expect(
      await outcome(
        loose()
          .insertInto('step_run_batches')
          .values({ step_run_id: stepRunId, batch_no: 0, first_record: 0, record_count: 100, created_at: now, updated_at: now })
          .execute(),
      ),
    ).toMatch(/unique|duplicate/i);
    expect(
      await outcome(
        loose()
          .insertInto('step_runs')
          .values({
            id: randomUUID(),
            run_id: runId,
            step_id: 's1',
            step_type: 'ai_prompt',
            params_hash: 'p',
            cache_key: 'k',
            created_at: now,
            updated_at: now,
          })
          .execute(),
      ),
    ).toMatch(/unique|duplicate/i);
    expect(await outcome(loose().insertInto('run_events').values({ id: randomUUID(), run_id: runId, seq: 1, type: 'x', created_at: now }).execute())).toMatch(
      /unique|duplicate/i,
    );

    // The next numbers are fine.
    await loose()
      .insertInto('step_run_batches')
      .values({ step_run_id: stepRunId, batch_no: 1, first_record: 100, record_count: 100, created_at: now, updated_at: now })
      .execute();
    await loose().insertInto('run_events').values({ id: randomUUID(), run_id: runId, seq: 2, type: 'x', created_at: now }).execute();
  });

  it('deleting a workflow deletes its runs and all under them, and keeps the datasets with their owner', async () => {
    const { workflowId, runId, stepRunId, datasetId, parentId, userId } = await runWithEverything();
    await db.deleteFrom('workflows').where('id', '=', workflowId).execute();

    expect(await db.selectFrom('workflow_runs').select('id').where('id', '=', runId).execute()).toEqual([]);
    expect(await db.selectFrom('step_runs').select('id').where('run_id', '=', runId).execute()).toEqual([]);
    expect(await db.selectFrom('step_run_batches').select('batch_no').where('step_run_id', '=', stepRunId).execute()).toEqual([]);
    expect(await db.selectFrom('run_events').select('id').where('run_id', '=', runId).execute()).toEqual([]);
    expect(await db.selectFrom('compute_jobs').select('id').where('step_run_id', '=', stepRunId).execute()).toEqual([]);

    const dataset = await db.selectFrom('datasets').selectAll().where('id', '=', datasetId).executeTakeFirstOrThrow();
    expect(dataset).toMatchObject({ user_id: userId, step_run_id: null, row_count: 0, bytes: 0, columns: '[]', expires_at: null });
    expect(await db.selectFrom('dataset_parents').selectAll().where('dataset_id', '=', datasetId).execute()).toEqual([
      { dataset_id: datasetId, parent_id: parentId },
    ]);
  });

  it('deleting a dataset removes its lineage rows both ways; deleting the user removes the rest', async () => {
    const { datasetId, parentId, userId } = await runWithEverything();
    await db.deleteFrom('datasets').where('id', '=', parentId).execute();
    expect(await db.selectFrom('dataset_parents').selectAll().where('dataset_id', '=', datasetId).execute()).toEqual([]);

    await db.deleteFrom('users').where('id', '=', userId).execute();
    expect(await db.selectFrom('datasets').select('id').where('user_id', '=', userId).execute()).toEqual([]);
    expect(await db.selectFrom('workflow_runs').select('id').where('user_id', '=', userId).execute()).toEqual([]);
  });

  it('holds byte counts beyond 32 bits as numbers', async () => {
    const { datasetId } = await runWithEverything();
    await db
      .updateTable('datasets')
      .set({ bytes: 6 * 2 ** 40, row_count: 5_000_000_000 })
      .where('id', '=', datasetId)
      .execute();
    const row = await db.selectFrom('datasets').select(['bytes', 'row_count']).where('id', '=', datasetId).executeTakeFirstOrThrow();
    expect(row).toEqual({ bytes: 6 * 2 ** 40, row_count: 5_000_000_000 });
  });
});
