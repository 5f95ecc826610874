import path from 'node:path';
import pino from 'pino';
import { loadConfig } from './config/config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { startHousekeeping } from './jobs/housekeeping';
import { createStorage } from './storage';

/**
 * A worker process for scale-out (`npm run worker`): it shares the database with the API processes
 * and runs the background jobs, so API processes can start with IN_PROCESS_WORKER=false. Today the
 * jobs are housekeeping; step runs join them with the run engine (BullMQ on REDIS_URL).
 */
async function main() {
  const config = loadConfig();
  const log = pino({ level: config.logLevel, base: { role: 'worker' } });
  const handle = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'stepwise.db') });
  await migrateToLatest(handle.db, handle.dialect);
  const { storage } = createStorage(config);
  const stopHousekeeping = startHousekeeping(handle.db, log, { storage });
  // Keeps the process alive until a signal; the jobs above run on unref'd timers.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  log.info({ database: handle.dialect }, 'worker ready');

  const shutdown = async (signal: string) => {
    log.info({ signal }, 'worker shutting down');
    clearInterval(keepAlive);
    stopHousekeeping();
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
