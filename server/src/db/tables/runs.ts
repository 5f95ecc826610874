// The run engine (migration 007): runs, step runs, their batches, compute jobs, events, and the AI steps' answer cache (migration 010).
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

/** Shared by runs, step runs, batches and compute jobs. */
export const RUN_STATES = ['queued', 'running', 'paused', 'succeeded', 'failed', 'cancelled', 'skipped', 'cached'] as const;
export type RunState = (typeof RUN_STATES)[number];
/** A run in one of these will not change again. */
export const FINISHED_RUN_STATES: readonly RunState[] = ['succeeded', 'failed', 'cancelled', 'skipped', 'cached'];

/**
 * Why a run or step run is paused, failed or cancelled (migration 016): its user paused or cancelled
 * it, the credits ran out, its worker was lost too often, a limit was reached, or another error.
 */
export const STATE_REASONS = ['by_user', 'credits', 'worker_lost', 'limit', 'error'] as const;
export type StateReason = (typeof STATE_REASONS)[number];

/** all: every step; up_to: the target and what it needs; from: the target and what follows; only: the target alone. */
export const RUN_MODES = ['all', 'up_to', 'from', 'only'] as const;
export type RunMode = (typeof RUN_MODES)[number];

/** Who or what started a run (migration 020): its owner, or an agent acting for them (a preview). */
export const RUN_STARTERS = ['user', 'agent'] as const;
export type RunStarter = (typeof RUN_STARTERS)[number];

export interface WorkflowRunsTable {
  id: string;
  workflow_id: string;
  /** Who started it; the owner checked on every read. */
  user_id: string;
  workflow_version: number;
  /** JSON: the workflow as it was when the run started. */
  snapshot: string;
  mode: RunMode;
  target_step_id: string | null;
  /** Run over the first N records only (a preview run); NULL: all records. */
  sample_size: number | null;
  state: RunState;
  error: string | null;
  /** Why a paused run is paused (migration 012): 'credits' when the balance ran out; NULL otherwise. */
  pause_reason: 'credits' | null;
  /** Why it is paused, failed or cancelled (migration 016); NULL in any other state. */
  state_reason: StateReason | null;
  /** Who or what started it (migration 020): 'user' (the owner, through the API) or 'agent'. */
  started_by: RunStarter;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ended_at: string | null;
}

export interface StepRunsTable {
  id: string;
  run_id: string;
  step_id: string;
  step_type: string;
  type_version: number;
  params_hash: string;
  /** Step type, version, params and inputs: an equal key means an equal output. */
  cache_key: string;
  state: RunState;
  /** JSON string[] */
  input_dataset_ids: string;
  output_dataset_id: string | null;
  /** NULL until known (before the inputs are read). */
  records_total: number | null;
  records_done: number;
  records_failed: number;
  error: string | null;
  /** Why it is paused, failed or cancelled (migration 016); NULL in any other state. */
  state_reason: StateReason | null;
  attempt: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ended_at: string | null;
}

export interface StepRunBatchesTable {
  step_run_id: string;
  batch_no: number;
  state: RunState;
  first_record: number;
  record_count: number;
  records_failed: number;
  /** Storage key of the batch's finished output part. */
  output_key: string | null;
  /** JSON kept by the step type between attempts. */
  checkpoint: string | null;
  error: string | null;
  attempt: number;
  created_at: string;
  updated_at: string;
}

/** A per-record step's outside call checkpointed as its answer arrived (migration 018). */
export interface StepRunCallsTable {
  step_run_id: string;
  /** The record's `_id`. */
  call_key: string;
  /** JSON of the row made from the answer. */
  result: string;
  /** 1: a failed record. */
  failed: number;
  created_at: string;
}

export interface ComputeJobsTable {
  id: string;
  step_run_id: string;
  batch_no: number | null;
  state: RunState;
  /** host:pid */
  worker: string | null;
  attempt: number;
  queued_at: string;
  started_at: string | null;
  ended_at: string | null;
  cpu_ms: number;
  peak_rss_bytes: number | null;
  /** Millionths of a credit. */
  cost_micros: number;
  /** JSON array of the last lines: StoredLogLine objects (engine/run-log.ts), or "ISO-time text" strings in rows written before 0069. */
  log_lines: string;
  /** Older lines left out of log_lines. */
  log_dropped: number;
  error: string | null;
}

export interface RunEventsTable {
  id: string;
  run_id: string;
  /** 1, 2, 3… per run. */
  seq: number;
  step_run_id: string | null;
  /** e.g. 'run.state', 'step.state', 'step.progress', 'log' */
  type: string;
  /** JSON */
  payload: string;
  created_at: string;
}

/** An AI step's answer, by owner and key (migration 010). */
export interface AiAnswerCacheTable {
  user_id: string;
  /** SHA-256 of the model id, the prompt after templating, the schema and the call's options. */
  cache_key: string;
  model_id: string;
  /** JSON text of the answer. */
  answer: string;
  /** The step run and record that paid for it, and its tokens (recorded again only by that step run, under that record). */
  step_run_id: string | null;
  record_id: string | null;
  tokens_in: number;
  tokens_out: number;
  created_at: string;
}
