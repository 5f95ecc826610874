import type { Log } from '../lib/logger';
import type { Db } from '../db/database';
import { FilesRepository } from '../modules/files/files.repository';
import { PendingUploadsRepository } from '../modules/files/pending-uploads.repository';
import type { Storage } from '../storage';

/** A direct upload is abandoned an hour after its target expired (time for a late confirm). */
export const DIRECT_UPLOAD_GRACE_MS = 3_600_000;
/** A multipart upload whose process died mid-stream stays pending; after a day it is abandoned. */
export const STREAMED_UPLOAD_GRACE_MS = 24 * 3_600_000;

/** Rows handled per query, so a large backlog is worked off in bounded steps. */
const BATCH = 500;

/**
 * Removes what unfinished uploads left behind: direct uploads never confirmed (their object or S3
 * multipart upload, and their quota reservation), streamed uploads whose process died (their
 * reserved name and partial object), and the temporary files of local writes cut off by a crash
 * (`*.partial`, which no row names). Idempotent, so several processes may run it.
 */
export async function cleanAbandonedUploads(
  db: Db,
  storage: Storage,
  log: Log,
  now = new Date(),
): Promise<{ direct: number; streamed: number; temporaries: number }> {
  const pending = new PendingUploadsRepository(db);
  const files = new FilesRepository(db);
  const directBefore = new Date(now.getTime() - DIRECT_UPLOAD_GRACE_MS).toISOString();
  const direct = await eachInBatches(
    () => pending.expiredBefore(directBefore, BATCH),
    async (upload) => {
      if (upload.multipart_upload_id) await storage.multipart?.abort(upload.storage_key, upload.multipart_upload_id);
      await storage.delete(upload.storage_key);
      await pending.delete(upload.id);
    },
  );
  const streamedBefore = new Date(now.getTime() - STREAMED_UPLOAD_GRACE_MS);
  const streamed = await eachInBatches(
    () => files.stalePending(streamedBefore.toISOString(), BATCH),
    async (file) => {
      await storage.delete(file.storage_key);
      await files.delete(file.id);
    },
  );
  // The same age as a pending row: by then the upload it belonged to can no longer be completed
  // (its row is gone), and a live write keeps its file's modification time fresh.
  const temporaries = (await storage.removeStaleTemporaries?.(streamedBefore)) ?? 0;
  if (direct || streamed || temporaries) log.info({ direct, streamed, temporaries }, 'housekeeping: removed abandoned uploads');
  return { direct, streamed, temporaries };
}

/** Handles rows until a query finds fewer than a batch; each handled row is gone from the next query. */
async function eachInBatches<T>(next: () => Promise<T[]>, handle: (row: T) => Promise<void>): Promise<number> {
  let count = 0;
  for (;;) {
    const batch = await next();
    for (const row of batch) {
      await handle(row);
      count++;
    }
    if (batch.length < BATCH) return count;
  }
}
