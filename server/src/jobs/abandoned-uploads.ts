import type { Log } from '../lib/logger';
import type { Db } from '../db/database';
import { FilesRepository } from '../modules/files/files.repository';
import { PendingUploadsRepository } from '../modules/files/pending-uploads.repository';
import type { Storage } from '../storage';

/** A direct upload is abandoned an hour after its target expired (time for a late confirm). */
export const DIRECT_UPLOAD_GRACE_MS = 3_600_000;
/** A multipart upload whose process died mid-stream stays pending; after a day it is abandoned. */
export const STREAMED_UPLOAD_GRACE_MS = 24 * 3_600_000;

/**
 * Removes what unfinished uploads left behind: direct uploads never confirmed (their object or S3
 * multipart upload, and their quota reservation) and streamed uploads whose process died (their
 * reserved name and partial object). Idempotent, so several processes may run it.
 */
export async function cleanAbandonedUploads(db: Db, storage: Storage, log: Log, now = new Date()): Promise<{ direct: number; streamed: number }> {
  const pending = new PendingUploadsRepository(db);
  const files = new FilesRepository(db);
  let direct = 0;
  for (const upload of await pending.expiredBefore(new Date(now.getTime() - DIRECT_UPLOAD_GRACE_MS).toISOString())) {
    if (upload.multipart_upload_id) await storage.multipart?.abort(upload.storage_key, upload.multipart_upload_id);
    await storage.delete(upload.storage_key);
    await pending.delete(upload.id);
    direct++;
  }
  let streamed = 0;
  for (const file of await files.stalePending(new Date(now.getTime() - STREAMED_UPLOAD_GRACE_MS).toISOString())) {
    await storage.delete(file.storage_key);
    await files.delete(file.id);
    streamed++;
  }
  if (direct || streamed) log.info({ direct, streamed }, 'housekeeping: removed abandoned uploads');
  return { direct, streamed };
}
