import pino from 'pino';
import { openCore } from './composition';
import { loadConfig } from './config/config';

/**
 * A worker process for scale-out (`npm run worker`): it shares the database, REDIS_URL and storage
 * with the API processes and runs the background jobs, so API processes can start with
 * IN_PROCESS_WORKER=false: housekeeping on timers, and the queued jobs (BullMQ on REDIS_URL; with
 * the in-memory queue a separate worker only sees what it enqueues itself, so use it with Redis).
 * Its parts come from the same composition root as the API's (composition.ts).
 */
async function main() {
  const config = loadConfig();
  const log = pino({ level: config.logLevel, base: { role: 'worker' } });
  const core = await openCore({ config, log });
  core.startWorking();
  const requeued = await core.runs.recover();
  if (requeued) log.info({ requeued }, 'run engine: requeued unfinished step runs');
  if (core.jobs.kind === 'memory') log.warn({}, "worker: no REDIS_URL, so the job queue is in memory and this worker cannot take the API processes' jobs");
  // Keeps the process alive until a signal; the jobs above run on unref'd timers.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  log.info({ database: core.dialect, queue: core.jobs.kind, concurrency: config.queue.concurrency }, 'worker ready');

  const shutdown = async (signal: string) => {
    log.info({ signal }, 'worker shutting down');
    clearInterval(keepAlive);
    // Running steps stop at their next check; running jobs end (and release their locks) before
    // the database they write to closes.
    await core.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
