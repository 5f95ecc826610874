import type { Db } from '../db/database';
import type { Log } from '../lib/logger';
import { COUNT_FILE_ROWS_JOB, type CountFileRowsJob, type FileRowCounts } from '../modules/files/file-row-counts';
import type { Storage } from '../storage';
import type { JobQueue } from './queue';

export interface JobDeps {
  db: Db;
  storage: Storage;
  log: Log;
  /** Counts an uploaded file's records for the cost estimate (decision 0066). */
  fileRowCounts: FileRowCounts;
}

/**
 * Every kind of queued job and its handler, registered by whichever process consumes the queue:
 * the API process when IN_PROCESS_WORKER is on (the embedded default), and `npm run worker`.
 * The run engine's `step-run` job is registered by the engine itself (`RunEngine.register`, built
 * by `openCore` in composition.ts for both processes), since it needs the datasets and the secrets.
 * Housekeeping stays on timers (it is idempotent and every process may run it).
 *
 * - `count-file-rows`: after an upload, its records are counted (DuckDB, bounded in size and time)
 *   so the first estimate knows them; one at a time per process, so uploads never crowd out runs.
 */
export function registerJobHandlers(jobs: JobQueue, deps: JobDeps): void {
  jobs.process<CountFileRowsJob>(COUNT_FILE_ROWS_JOB, (job) => deps.fileRowCounts.countAfterUpload(job.data), { concurrency: 1 });
}
