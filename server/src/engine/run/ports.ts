import type { ModelSettings } from '../../ai';
import type { Config } from '../../config/config';
import type { JobQueue } from '../../jobs/queue';
import type { Log } from '../../lib/logger';
import type { SecretBox } from '../../lib/secret-box';
import type { RunsRepository } from '../../modules/runs/runs.repository';
import type { WorkflowSnapshot } from '../../modules/workflows/workflow-state';
import type { WorkflowRow } from '../../modules/workflows/workflows.repository';
import type { Storage } from '../../storage';
import type { DatasetMetadata, Datasets } from '../datasets';
import type { OutboundHttpClient } from '../outbound-http';
import type { AnswerCache, UserFiles } from '../runners';

/**
 * What the run engine needs from the rest of the server, passed in by the composition root
 * (server/src/composition.ts): the engine reaches the application database only through these, so
 * it holds no SQL and no area's rules, and each area keeps implementing its own part.
 */
export interface RunEngineDeps {
  config: Pick<Config, 'llm'>;
  log: Log;
  storage: Storage;
  datasets: Datasets;
  jobs: JobQueue;
  secrets: SecretBox;
  http: OutboundHttpClient;
  /** Runs, step runs, batches, compute jobs and run events (modules/runs). */
  runs: RunStore;
  workflows: WorkflowSource;
  datasetCatalog: DatasetCatalog;
  /** Record counts of the owner's data files before any run, for estimates (modules/files/file-row-counts.ts). */
  fileRowCounts: FileRowCountSource;
  usage: UsageRecorder;
  credits: CreditsPort;
  models: ModelSettingsSource;
  /** The owner's AI answer cache (modules/runs/ai-answer-cache.ts). */
  answerCache(ownerId: string): PrunableAnswerCache;
  /** The owner's files as one step run sees them (modules/runs/user-files.ts). */
  userFiles(ownerId: string, stepRunId: string): StepFiles;
  /** The run's events, in any process (modules/runs/run-events.ts): a wake-up, the rows say what. */
  events: RunWakeUps;
}

export interface RunWakeUps {
  /** Wakes whoever follows the run, in this process and (with Redis) every other. */
  notify(runId: string): void;
  /** Resolves on the run's next wake-up, after `timeoutMs`, or when `signal` aborts. */
  wait(runId: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
}

/** The engine's own tables: modules/runs/runs.repository.ts is the one implementation. */
export type RunStore = RunsRepository;

/** The workflows runs start from (modules/workflows' repository). */
export interface WorkflowSource {
  findOwned(id: string, ownerId: string): Promise<WorkflowRow | undefined>;
  loadSnapshot(workflow: WorkflowRow): Promise<WorkflowSnapshot>;
  /** The stored (sealed) values of a workflow's secret variables by name. */
  secretValues(workflowId: string, names: readonly string[]): Promise<{ name: string; value: string | null }[]>;
}

/** The datasets a run reads and writes, owner-checked (modules/datasets' service). */
export interface DatasetCatalog {
  findOwned(userId: string, id: string): Promise<DatasetMetadata | undefined>;
  registerDataset(meta: DatasetMetadata, options: { expiresAt?: string | null }): Promise<void>;
}

/** A file's records as its name's format reads them, counted once; null when unknown or not the owner's. */
export interface FileRowCountSource {
  rowCount(ownerId: string, fileId: string): Promise<{ rows: number; format: string } | null>;
}

/** Counts of what a step used (AI tokens, HTTP calls), keyed so a redo records nothing twice (modules/usage). */
export interface UsageRecorder {
  record(events: { userId: string; kind: string; quantity: number; refId: string; idempotencyKey: string }[]): Promise<void>;
}

/** Where a charge comes from: the step run it pays for. */
export interface ChargedStep {
  userId: string;
  workflowId: string;
  stepId: string;
  stepType: string;
  /** The step's name when it ran: the usage row's description. */
  stepName: string;
  runId: string;
  stepRunId: string;
}

/** What a step reported with `ctx.usage` (engine/runners' RunContext). */
export interface ReportedUsage {
  kind: string;
  quantity: number;
  key: string;
}

/**
 * Prices and the credit ledger (modules/usage/usage-charges.ts implements it): the engine asks
 * before a run whether the balance covers its estimate, charges each finished batch or step, and
 * pauses a run whose balance ran out.
 */
export interface CreditsPort {
  readonly enabled: boolean;
  balanceMicro(userId: string): Promise<number>;
  /** True when billing is on and the user has no credits left. */
  exhausted(userId: string): Promise<boolean>;
  priceOf(stepType: string): { per: 'run' | 'record'; unitMicro: number };
  chargeBatch(step: ChargedStep, batchNo: number, recordIds: ReadonlySet<string>, reported: readonly ReportedUsage[]): Promise<void>;
  chargeStep(step: ChargedStep, records: number | null): Promise<void>;
}

/** The model settings that apply to an owner's runs: their own, else the operator's (modules/users). */
export interface ModelSettingsSource {
  settingsFor(ownerId: string): Promise<ModelSettings>;
}

export interface PrunableAnswerCache extends AnswerCache {
  /** Drops the owner's oldest answers beyond the cache's bound; how many went. */
  prune(): Promise<number>;
}

/** UserFiles with the step run's scratch folder, made before the step and removed after it. */
export interface StepFiles extends UserFiles {
  readonly scratchDir: string;
  prepare(): Promise<void>;
  dispose(): Promise<void>;
}
