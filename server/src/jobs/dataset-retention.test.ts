import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { DatasetMetadata } from '../engine/datasets';
import type { Log } from '../lib/logger';
import { DatasetsService } from '../modules/datasets/datasets.service';
import { createTestApp, signedInUser, type TestApp } from '../test/test-app';
import { workflowClient } from '../test/workflow-helpers';
import { cleanDatasets } from './dataset-retention';

const DAY = 24 * 3_600_000;
const quiet: Log = { debug() {}, info() {}, warn() {}, error() {} };

/*
 * Housekeeping of datasets on real snapshots in the test's storage: expired samples, outputs past
 * the retention period, files no row names, and what must survive all three.
 */
describe('dataset retention', () => {
  let t: TestApp;
  let service: DatasetsService;
  let ownerId: string;
  let workflowId: string;
  const now = new Date();
  const daysAgo = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
  const untyped = () => t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>;

  beforeAll(async () => {
    t = await createTestApp();
    service = new DatasetsService(t.app.db, t.app.datasets);
    const owner = await signedInUser(t.app);
    ownerId = owner.user.id as string;
    workflowId = (await workflowClient(t.app, owner.auth).createWorkflow()).id as string;
  });
  afterAll(() => t.close());

  /** A run of the workflow with one step run of `stepId`, made and finished `days` ago. */
  async function stepRun(stepId: string, days: number, state = 'succeeded', inputs: string[] = []): Promise<string> {
    const at = daysAgo(days);
    const runId = randomUUID();
    const id = randomUUID();
    await t.app.db
      .insertInto('workflow_runs')
      .values({
        id: runId,
        workflow_id: workflowId,
        user_id: ownerId,
        workflow_version: 1,
        snapshot: '{}',
        mode: 'all',
        target_step_id: null,
        sample_size: null,
        state: 'succeeded',
        started_by: 'user',
        created_at: at,
        updated_at: at,
      })
      .execute();
    await untyped()
      .insertInto('step_runs')
      .values({
        id,
        run_id: runId,
        step_id: stepId,
        step_type: 'filter',
        params_hash: 'p',
        cache_key: randomUUID(),
        state,
        input_dataset_ids: JSON.stringify(inputs),
        created_at: at,
        updated_at: at,
        ended_at: at,
      })
      .execute();
    return id;
  }

  /** A dataset written by the step run, registered as made `days` ago, as the run engine does. */
  async function output(stepRunId: string | null, days: number, expiresAt: string | null = null): Promise<DatasetMetadata> {
    const meta = await t.app.datasets.write({ ownerId, name: 'Out', stepRunId, source: { columns: [{ name: 'x', type: 'BIGINT' }], batches: [[{ x: 1 }]] } });
    const made = { ...meta, createdAt: daysAgo(days) };
    await service.registerDataset(made, { expiresAt });
    if (stepRunId) await untyped().updateTable('step_runs').set({ output_dataset_id: meta.id }).where('id', '=', stepRunId).execute();
    return made;
  }

  const exists = async (meta: DatasetMetadata) => ({
    row: Boolean(await t.app.db.selectFrom('datasets').select('id').where('id', '=', meta.id).executeTakeFirst()),
    file: Boolean(await t.app.storage.head(meta.storageKey)),
  });
  const gone = { row: false, file: false };
  const kept = { row: true, file: true };

  it('deletes expired datasets with their files, unless a step run in progress reads them', async () => {
    const expired = await output(await stepRun('sample', 2), 2, daysAgo(1));
    const read = await output(await stepRun('sample2', 2), 2, daysAgo(1));
    const fresh = await output(await stepRun('sample3', 0), 0, new Date(now.getTime() + DAY).toISOString());
    await stepRun('reader', 0, 'running', [read.id]);
    const result = await cleanDatasets(t.app.db, t.app.storage, quiet, { retentionDays: 0, now });
    expect(result.expired).toBe(1);
    expect(await exists(expired)).toEqual(gone);
    expect(await exists(read)).toEqual(kept);
    expect(await exists(fresh)).toEqual(kept);
  });

  it("deletes run outputs past the retention period but each step's newest, reused and uploaded ones", async () => {
    const oldest = await output(await stepRun('a', 60), 60);
    const older = await output(await stepRun('a', 50), 50);
    const newestOfA = await output(await stepRun('a', 40), 40);
    // A sample since then is newer, but it expires: the step keeps its newest lasting output too.
    await output(await stepRun('a', 1), 1, new Date(now.getTime() + DAY).toISOString());
    const onlyOfB = await output(await stepRun('b', 90), 90);
    const olderOfB = await output(await stepRun('b', 95), 95);
    // Step c's old output was taken from the cache by a run yesterday.
    const reused = await output(await stepRun('c', 70), 70);
    await output(await stepRun('c', 0), 0);
    const cached = await stepRun('c', 1, 'cached');
    await untyped().updateTable('step_runs').set({ output_dataset_id: reused.id }).where('id', '=', cached).execute();
    // A queued step run will read this one.
    const input = await output(await stepRun('d', 80), 80);
    await output(await stepRun('d', 0), 0);
    await stepRun('e', 0, 'queued', [input.id]);
    const upload = await output(null, 365);

    // 0 keeps everything (expiry aside).
    expect((await cleanDatasets(t.app.db, t.app.storage, quiet, { retentionDays: 0, now })).retired).toBe(0);
    const result = await cleanDatasets(t.app.db, t.app.storage, quiet, { retentionDays: 30, now });
    expect(result.retired).toBe(3);
    expect(await exists(oldest)).toEqual(gone);
    expect(await exists(older)).toEqual(gone);
    expect(await exists(olderOfB)).toEqual(gone);
    for (const survivor of [newestOfA, onlyOfB, reused, input, upload]) expect(await exists(survivor)).toEqual(kept);
    // Idempotent: a second pass (another process) finds nothing more.
    expect(await cleanDatasets(t.app.db, t.app.storage, quiet, { retentionDays: 30, now })).toEqual({ expired: 0, retired: 0, orphans: 0 });
  });

  it('tolerates a file already gone, and sweeps day-old files no row names', async () => {
    // A crash after a row was deleted: its file stays behind; later its row's delete finds no file.
    const fileGone = await output(await stepRun('f', 3), 3, daysAgo(1));
    await t.app.storage.delete(fileGone.storageKey);
    const orphanKey = `datasets/${ownerId}/${randomUUID()}.parquet`;
    await t.app.storage.put(orphanKey, Readable.from([Buffer.from('PAR1')]));
    const beingWrittenKey = `datasets/${ownerId}/${randomUUID()}.parquet`;
    await t.app.storage.put(beingWrittenKey, Readable.from([Buffer.from('PAR1')]));
    const notASnapshot = `datasets/${ownerId}/notes.txt`;
    await t.app.storage.put(notASnapshot, Readable.from([Buffer.from('x')]));

    // The expired row goes though its file is missing; right now, the orphan could still be a
    // write about to be registered.
    expect(await cleanDatasets(t.app.db, t.app.storage, quiet, { retentionDays: 0, now: new Date() })).toEqual({ expired: 1, retired: 0, orphans: 0 });
    expect(await exists(fileGone)).toEqual(gone);
    expect(await t.app.storage.head(orphanKey)).not.toBeNull();

    const later = new Date(Date.now() + DAY + 60_000);
    const result = await cleanDatasets(t.app.db, t.app.storage, quiet, { retentionDays: 0, now: later });
    // Both files without a row are a day old by then; every registered snapshot stays.
    expect(result.orphans).toBe(2);
    expect(await t.app.storage.head(orphanKey)).toBeNull();
    expect(await t.app.storage.head(beingWrittenKey)).toBeNull();
    expect(await t.app.storage.head(notASnapshot)).not.toBeNull();
    const rows = await t.app.db.selectFrom('datasets').select('storage_key').execute();
    for (const { storage_key } of rows) expect(await t.app.storage.head(storage_key)).not.toBeNull();
  });
});
