import type { Db } from '../db/database';
import type { Log } from '../lib/logger';
import type { Storage } from '../storage';
import type { JobQueue } from './queue';

export interface JobDeps {
  db: Db;
  storage: Storage;
  log: Log;
}

/**
 * Every kind of queued job and its handler, registered by whichever process consumes the queue:
 * the API process when IN_PROCESS_WORKER is on (the embedded default), and `npm run worker`.
 * The run engine's `step-run` job is registered by the engine itself (`RunEngine.register`, built
 * by `createRunEngine` in both processes), since it needs the datasets and the secrets; this is for
 * jobs that need only the database, storage and log. Housekeeping stays on timers (it is
 * idempotent and every process may run it).
 */
export function registerJobHandlers(jobs: JobQueue, deps: JobDeps): void {
  void jobs;
  void deps;
}
