import path from 'node:path';
import type { Config } from './config/config';
import { openDatabase, type Db, type Dialect } from './db/database';
import { migrateToLatest } from './db/migrate';
import { Datasets } from './engine/datasets';
import { AddressPolicy, createOutboundHttpClient } from './engine/outbound-http';
import { RunEngine } from './engine/run';
import { registerJobHandlers } from './jobs/handlers';
import { startHousekeeping } from './jobs/housekeeping';
import { createJobQueue, type JobQueue } from './jobs/queue';
import type { Log } from './lib/logger';
import { loadSecretBox, type SecretBox } from './lib/secret-box';
import { DatasetMaterializer } from './modules/datasets/materializer';
import { DatasetsService } from './modules/datasets/datasets.service';
import { FileRowCounts } from './modules/files/file-row-counts';
import { AiAnswerCache } from './modules/runs/ai-answer-cache';
import { RunEventBus } from './modules/runs/run-events';
import { RunsRepository } from './modules/runs/runs.repository';
import { StepUserFiles } from './modules/runs/user-files';
import { Credits } from './modules/usage/credits';
import { Ledger } from './modules/usage/ledger';
import { UsageCharges } from './modules/usage/usage-charges';
import { UsageEventsService } from './modules/usage/usage-events.service';
import { UserModels } from './modules/users/user-models';
import { WorkflowsRepository } from './modules/workflows/workflows.repository';
import { createStorage, type Storage } from './storage';
import type { UploadTokenSigner } from './storage/upload-tokens';

export interface CoreOptions {
  config: Config;
  log: Log;
  /** A PostgreSQL schema to work in instead of public (the benchmarks use one of their own). */
  pgSchema?: string;
  /** Tests: a Redis key prefix of their own, so parallel test files never take each other's jobs or events. */
  redisNamespace?: string;
}

/**
 * The composition root: every long-lived part of a process, built once, in one place, in the order
 * of their dependencies. The API (`app.ts`, through plugins/core.ts), `npm run worker`
 * (`worker.ts`), the test apps and the benchmarks all start from it, so they run the same wiring.
 */
export interface Core {
  config: Config;
  db: Db;
  dialect: Dialect;
  storage: Storage;
  /** Signs and checks local direct-upload URLs; null when storage is S3. */
  uploadSigner: UploadTokenSigner | null;
  /** DuckDB over the datasets' Parquet snapshots (engine/datasets); opened on first use. */
  datasets: Datasets;
  /** The job queue (in memory, or BullMQ on REDIS_URL); see jobs/queue/job-queue.ts. */
  jobs: JobQueue;
  /** Seals secret values (workflow variables, users' model keys) at rest. */
  secrets: SecretBox;
  /** The credit ledger, shared by billing, payments and the run engine (modules/usage). */
  credits: Credits;
  /** Starts and controls runs; once `startWorking` ran, this process also executes them. */
  runs: RunEngine;
  runEvents: RunEventBus;
  /**
   * Makes this process execute background work: the queued jobs (step runs and the rest) and
   * housekeeping on timers. Then `runs.recover()` requeues what a previous process left unfinished.
   */
  startWorking(): void;
  /** Running steps stop at their next check and go back to the queue (before `close`). */
  stopSteps(): void;
  /** Closes everything, in the order that lets running jobs finish on an open database. */
  close(): Promise<void>;
}

export async function openCore(options: CoreOptions): Promise<Core> {
  const { config, log } = options;
  const handle = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'stepwise.db'), pgSchema: options.pgSchema });
  await migrateToLatest(handle.db, handle.dialect);
  const db = handle.db;
  const secrets = loadSecretBox(config.secretsKey, config.dataDir);
  const { storage, signer } = createStorage(config);
  const datasets = new Datasets({ storage, config: config.datasets, log });
  // A deferred dataset's snapshot is written the first time something opens it.
  new DatasetMaterializer(db, datasets, log).install();
  const queuePrefix = options.redisNamespace && `${options.redisNamespace}:queue`;
  const jobs = createJobQueue(config, log, { prefix: queuePrefix });
  const credits = new Credits(new Ledger(db), log);
  // One per process: the upload's count job and an estimate asking meanwhile share one count.
  const fileRowCounts = new FileRowCounts({ db, storage, pool: datasets.pool, tempDir: config.datasets.tempDir, log });
  // Beside the queues' keys: processes sharing a queue share its run events, other installations on
  // the same Redis do not hear them.
  const runEvents = new RunEventBus({ redisUrl: config.redisUrl, channel: `${queuePrefix ?? config.queue.prefix}:run-events`, log });
  const runs = new RunEngine({
    config,
    log,
    storage,
    datasets,
    jobs,
    secrets,
    http: createOutboundHttpClient({ policy: new AddressPolicy(config.httpSteps) }),
    runs: new RunsRepository(db),
    workflows: new WorkflowsRepository(db),
    datasetCatalog: new DatasetsService(db, datasets),
    fileRowCounts,
    usage: new UsageEventsService(db),
    credits: new UsageCharges(db, config.billing),
    models: new UserModels(db, secrets, config),
    answerCache: (ownerId) => new AiAnswerCache(db, ownerId),
    userFiles: (ownerId, stepRunId) => new StepUserFiles({ db, storage, config, log }, ownerId, stepRunId),
    events: runEvents,
  });
  // Credits arrived (a purchase, a grant, an adjustment): runs paused because they ran out go on.
  credits.onCredited(async (userId) => {
    const resumed = await runs.resumeForCredits(userId);
    if (resumed) log.info({ userId, resumed }, 'run engine: resumed runs paused for credits');
  });

  let stopHousekeeping = () => {};
  return {
    config,
    db,
    dialect: handle.dialect,
    storage,
    uploadSigner: signer,
    datasets,
    jobs,
    secrets,
    credits,
    runs,
    runEvents,
    startWorking() {
      stopHousekeeping = startHousekeeping(db, log, { storage, datasetRetentionDays: config.datasets.retentionDays });
      registerJobHandlers(jobs, { db, storage, log, fileRowCounts });
      runs.register();
    },
    stopSteps: () => runs.stopAll(),
    async close() {
      stopHousekeeping();
      runs.stopAll();
      // Running jobs end (and release their locks) before the database they write to closes.
      await jobs.close();
      await runEvents.close();
      await datasets.close();
      await handle.close();
      await storage.close();
    },
  };
}
