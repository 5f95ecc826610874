import type { Log } from '../lib/logger';
import type { Db } from '../db/database';
import { PasswordResetsRepository } from '../modules/auth/password-resets.repository';
import { SessionsRepository } from '../modules/auth/sessions.repository';
import type { Storage } from '../storage';
import { cleanAbandonedUploads } from './abandoned-uploads';
import { cleanDatasets } from './dataset-retention';

/** Deletes sessions and reset links that can never be used again (a day after they died). */
export async function purgeDeadCredentials(db: Db, log: Log): Promise<void> {
  const before = new Date(Date.now() - 24 * 3600_000).toISOString();
  const sessions = await new SessionsRepository(db).deleteDead(before);
  const resets = await new PasswordResetsRepository(db).deleteDead(before);
  if (sessions || resets) log.info({ sessions, resets }, 'housekeeping: purged dead credentials');
}

/**
 * Runs housekeeping now and then every hour until stopped. Idempotent, so several processes
 * (API and workers) may all run it.
 */
export function startHousekeeping(db: Db, log: Log, options: { storage?: Storage; everyMs?: number; datasetRetentionDays?: number } = {}): () => void {
  const { storage, everyMs = 3_600_000, datasetRetentionDays = 0 } = options;
  const run = async () => {
    await purgeDeadCredentials(db, log).catch((err) => log.error({ err }, 'housekeeping failed'));
    if (storage) await cleanAbandonedUploads(db, storage, log).catch((err) => log.error({ err }, 'housekeeping: upload cleanup failed'));
    if (storage) {
      await cleanDatasets(db, storage, log, { retentionDays: datasetRetentionDays }).catch((err) => log.error({ err }, 'housekeeping: dataset cleanup failed'));
    }
  };
  void run();
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
