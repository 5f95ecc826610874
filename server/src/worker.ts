import path from 'node:path';
import pino from 'pino';
import { loadConfig } from './config/config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { registerJobHandlers } from './jobs/handlers';
import { startHousekeeping } from './jobs/housekeeping';
import { createJobQueue } from './jobs/queue';
import { createStorage } from './storage';

/**
 * A worker process for scale-out (`npm run worker`): it shares the database, REDIS_URL and storage
 * with the API processes and runs the background jobs, so API processes can start with
 * IN_PROCESS_WORKER=false: housekeeping on timers, and the queued jobs (BullMQ on REDIS_URL; with
 * the in-memory queue a separate worker only sees what it enqueues itself, so use it with Redis).
 */
async function main() {
  const config = loadConfig();
  const log = pino({ level: config.logLevel, base: { role: 'worker' } });
  const handle = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'stepwise.db') });
  await migrateToLatest(handle.db, handle.dialect);
  const { storage } = createStorage(config);
  const stopHousekeeping = startHousekeeping(handle.db, log, { storage });
  const jobs = createJobQueue(config, log);
  registerJobHandlers(jobs, { db: handle.db, storage, log });
  if (jobs.kind === 'memory') log.warn({}, 'worker: no REDIS_URL, so the job queue is in memory and this worker cannot take the API processes\' jobs');
  // Keeps the process alive until a signal; the jobs above run on unref'd timers.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  log.info({ database: handle.dialect, queue: jobs.kind, concurrency: config.queue.concurrency }, 'worker ready');

  const shutdown = async (signal: string) => {
    log.info({ signal }, 'worker shutting down');
    clearInterval(keepAlive);
    stopHousekeeping();
    // Running jobs finish (and release their locks) before the database they write to closes.
    await jobs.close();
    await handle.close();
    await storage.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
