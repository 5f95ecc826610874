import type { Db } from '../db/database';
import type { Log } from '../lib/logger';
import { DatasetRetentionRepository } from '../modules/datasets/dataset-retention.repository';
import type { Storage } from '../storage';

const DAY_MS = 24 * 3_600_000;
/** Rows handled per query, so a large backlog is worked off in bounded steps. */
const BATCH = 500;
/**
 * A snapshot is stored before its row is written (run engine: write, then register), so a file
 * without a row may be a write about to be registered. After a day it is an orphan: a crash
 * between deleting a row and its file, or a run that died between storing and registering.
 */
export const ORPHAN_GRACE_MS = DAY_MS;
/** Only snapshots: `datasets/<owner>/<id>.parquet` (metadata.ts, datasetKey). */
const SNAPSHOT_KEY = /^datasets\/[^/]+\/[^/]+\.parquet$/;
/** A deferred import's own copy of its file (engine/sources/deferred-file.ts, sourceCopyKey): it goes with its dataset. */
const SOURCE_COPY_KEY = /^datasets\/[^/]+\/[^/]+\.(csv|source)$/;
const copiesOf = (snapshotKey: string) => ['.csv', '.source'].map((ending) => snapshotKey.replace(/\.parquet$/, ending));

export interface DatasetCleanup {
  expired: number;
  retired: number;
  orphans: number;
}

/**
 * Deletes datasets nobody will read again, each row first and then its file (tolerating a file
 * already gone):
 * - past `expires_at` (sample runs' outputs);
 * - with `retentionDays` > 0, run outputs made more than that many days ago, except each step's
 *   newest output and any a recent run reused (see DatasetRetentionRepository.retiredIds);
 * - never one a queued, running or paused step run reads;
 * - then files under `datasets/` that no row names, a day after they were written.
 * Idempotent, so several processes may run it.
 */
export async function cleanDatasets(db: Db, storage: Storage, log: Log, options: { retentionDays: number; now?: Date }): Promise<DatasetCleanup> {
  const now = options.now ?? new Date();
  const repo = new DatasetRetentionRepository(db);
  const remove = async (ids: { id: string }[], notReusedSince?: string) => {
    let removed = 0;
    for (const { id } of ids) {
      const key = await repo.deleteUnused(id, { notReusedSince });
      if (key === null) continue;
      await storage.delete(key);
      // A deferred import's copy of its file, if it had one (deleting a missing object is fine).
      if (SNAPSHOT_KEY.test(key)) for (const copy of copiesOf(key)) await storage.delete(copy);
      removed++;
    }
    return removed;
  };

  let expired = 0;
  for (;;) {
    const batch = await repo.expiredIds(now.toISOString(), BATCH);
    expired += await remove(batch);
    if (batch.length < BATCH) break;
  }

  let retired = 0;
  if (options.retentionDays > 0) {
    const cutoff = new Date(now.getTime() - options.retentionDays * DAY_MS).toISOString();
    for (;;) {
      const batch = await repo.retiredIds(cutoff, BATCH);
      retired += await remove(batch, cutoff);
      if (batch.length < BATCH) break;
    }
  }

  const orphans = await sweepOrphanFiles(repo, storage, new Date(now.getTime() - ORPHAN_GRACE_MS));
  if (expired || retired || orphans) log.info({ expired, retired, orphans }, 'housekeeping: removed datasets');
  return { expired, retired, orphans };
}

async function sweepOrphanFiles(repo: DatasetRetentionRepository, storage: Storage, writtenBefore: Date): Promise<number> {
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    // A file's copy belongs to the dataset whose snapshot key it shares (stored or not yet).
    const snapshotOf = (key: string) => (SOURCE_COPY_KEY.test(key) ? key.replace(/\.(csv|source)$/, '.parquet') : key);
    const known = await repo.knownKeys(batch.map(snapshotOf));
    for (const key of batch) {
      if (known.has(snapshotOf(key))) continue;
      await storage.delete(key);
      removed++;
    }
    batch = [];
  };
  for await (const object of storage.list('datasets/')) {
    if (!(SNAPSHOT_KEY.test(object.key) || SOURCE_COPY_KEY.test(object.key)) || object.lastModified >= writtenBefore) continue;
    batch.push(object.key);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length) await flush();
  return removed;
}
