import path from 'node:path';
import pino from 'pino';
import { loadConfig } from './config/config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { registerJobHandlers } from './jobs/handlers';
import { startHousekeeping } from './jobs/housekeeping';
import { createJobQueue } from './jobs/queue';
import { createStorage } from './storage';
import { DatasetMaterializer } from './modules/datasets/materializer';
import { Datasets } from './engine/datasets';
import { loadSecretBox } from './lib/secret-box';
import { createRunEngine } from './modules/runs';

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
  const stopHousekeeping = startHousekeeping(handle.db, log, { storage, datasetRetentionDays: config.datasets.retentionDays });
  const jobs = createJobQueue(config, log);
  registerJobHandlers(jobs, { db: handle.db, storage, log });
  const datasets = new Datasets({ storage, config: config.datasets, log });
  new DatasetMaterializer(handle.db, datasets, log).install();
  const { engine, events } = createRunEngine({
    db: handle.db,
    storage,
    config,
    log,
    datasets,
    jobs,
    secrets: loadSecretBox(config.secretsKey, config.dataDir),
  });
  engine.register();
  const requeued = await engine.recover();
  if (requeued) log.info({ requeued }, 'run engine: requeued unfinished step runs');
  if (jobs.kind === 'memory') log.warn({}, "worker: no REDIS_URL, so the job queue is in memory and this worker cannot take the API processes' jobs");
  // Keeps the process alive until a signal; the jobs above run on unref'd timers.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  log.info({ database: handle.dialect, queue: jobs.kind, concurrency: config.queue.concurrency }, 'worker ready');

  const shutdown = async (signal: string) => {
    log.info({ signal }, 'worker shutting down');
    clearInterval(keepAlive);
    stopHousekeeping();
    // Running steps stop at their next check; running jobs end (and release their locks) before
    // the database they write to closes.
    engine.stopAll();
    await jobs.close();
    await events.close();
    await datasets.close();
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
