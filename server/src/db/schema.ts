// Row types of every table, as Kysely sees them. Timestamps are ISO-8601 strings in UTC on both
// databases (timestamptz on PostgreSQL is parsed back to ISO strings in database.ts), ids are
// text UUIDs, so the services never branch on the dialect.

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  role: 'user' | 'support' | 'admin';
  locale: 'en' | 'cn';
  theme: 'light' | 'dark' | 'system';
  /** The user's own chat model (migration 008); all null: the operator's LLM_* model applies. */
  ai_base_url: string | null;
  ai_model: string | null;
  ai_provider: 'openai' | 'openai-compatible' | null;
  /** SecretBox-sealed; never returned. */
  ai_api_key_sealed: string | null;
  created_at: string;
  updated_at: string;
}

/** The user's own model columns: read only where a model is chosen, never on every request. */
export type UserModelColumn = 'ai_base_url' | 'ai_model' | 'ai_provider' | 'ai_api_key_sealed';

export interface SessionsTable {
  id: string;
  user_id: string;
  /** SHA-256 of the bearer token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  ip: string | null;
}

export interface PasswordResetTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  folders: FoldersTable;
  files: FilesTable;
  pending_uploads: PendingUploadsTable;
  usage_events: UsageEventsTable;
  workflows: WorkflowsTable;
  workflow_steps: WorkflowStepsTable;
  workflow_variables: WorkflowVariablesTable;
  workflow_commits: WorkflowCommitsTable;
  workflow_undo_entries: WorkflowUndoEntriesTable;
  step_info_overrides: StepInfoOverridesTable;
  step_info_embeddings: StepInfoEmbeddingsTable;
  workflow_runs: WorkflowRunsTable;
  step_runs: StepRunsTable;
  step_run_batches: StepRunBatchesTable;
  datasets: DatasetsTable;
  dataset_parents: DatasetParentsTable;
  compute_jobs: ComputeJobsTable;
  run_events: RunEventsTable;
  conversations: ConversationsTable;
  conversation_messages: ConversationMessagesTable;
  ai_answer_cache: AiAnswerCacheTable;
  credit_ledger: CreditLedgerTable;
  payments: PaymentsTable;
  payment_events: PaymentEventsTable;
  contact_queries: ContactQueriesTable;
  contact_replies: ContactRepliesTable;
  beta_interest_requests: BetaInterestRequestsTable;
  invitation_codes: InvitationCodesTable;
  invitation_code_uses: InvitationCodeUsesTable;
  videos: VideosTable;
}

export interface WorkflowsTable {
  id: string;
  owner_id: string;
  name: string;
  description: string;
  /** JSON string[] */
  tags: string;
  /** Grows by one with every commit; a write based on another version is refused (409). */
  version: number;
  visibility: 'private' | 'published';
  /** JSON WorkflowSnapshot as published to the gallery (secrets stripped). */
  published_snapshot: string | null;
  published_name: string | null;
  published_description: string | null;
  /** JSON string[] */
  published_tags: string | null;
  published_at: string | null;
  /** The workflow version the published copy was taken from; null when unpublished or not recorded. */
  published_version: number | null;
  cloned_from_id: string | null;
  clone_count: number;
  created_at: string;
  updated_at: string;
}

export interface WorkflowStepsTable {
  id: string;
  workflow_id: string;
  step_type: string;
  name: string;
  /** JSON object: param name → value or {{var.x}}/{{field.y}} reference */
  param_inputs: string;
  /** JSON string[]: the ids of the steps this one reads from, in order */
  inputs: string;
  position_x: number;
  position_y: number;
  created_at: string;
  updated_at: string;
}

export interface WorkflowVariablesTable {
  id: string;
  workflow_id: string;
  name: string;
  type: 'string' | 'number' | 'boolean' | 'json' | 'secret';
  description: string;
  value: string | null;
  created_at: string;
  updated_at: string;
}

export interface WorkflowCommitsTable {
  id: string;
  workflow_id: string;
  seq: number;
  author_id: string | null;
  kind: 'create' | 'edit' | 'undo' | 'redo' | 'restore';
  message: string;
  /** JSON Change[]: what the commit list shows. */
  changes: string;
  /**
   * JSON WorkflowSnapshot after this commit, on checkpoint commits only (a workflow's first commit
   * and then every HISTORY.checkpointEvery-th); secret values are never in it.
   */
  checkpoint: string | null;
  /** JSON SnapshotDelta (what changed, before and after) on every other commit. */
  delta: string | null;
  /** How many delta commits lie between this commit and its checkpoint (0: it is one). */
  depth: number;
  /** When the commit was made, or for merged canvas moves, when the last move was. */
  created_at: string;
}

/**
 * The undo and redo stacks, one row per commit on either (rows leave the bottom of the undo stack
 * beyond HISTORY.undoLimit). The top of a stack is its highest `position`.
 */
export interface WorkflowUndoEntriesTable {
  commit_id: string;
  workflow_id: string;
  stack: 'undo' | 'redo';
  /** The workflow version at which the entry was put on its stack; only the order counts. */
  position: number;
}

// ---- files and storage (issue 3/6) ----

export interface FoldersTable {
  id: string;
  owner_id: string;
  /** NULL: at the user's root. */
  parent_id: string | null;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface FilesTable {
  id: string;
  owner_id: string;
  /** NULL: at the user's root. */
  folder_id: string | null;
  /** Display name only; never part of a storage key. */
  name: string;
  size: number;
  content_type: string;
  checksum_sha256: string | null;
  /** `users/<owner_id>/files/<id>` */
  storage_key: string;
  status: 'pending' | 'ready';
  created_at: string;
  updated_at: string;
}

export interface PendingUploadsTable {
  id: string;
  owner_id: string;
  folder_id: string | null;
  name: string;
  /** Declared by the client; the stored object must match it. */
  size: number;
  checksum_sha256: string | null;
  storage_key: string;
  /** S3 multipart upload, when the file goes up in presigned parts. */
  multipart_upload_id: string | null;
  part_size: number | null;
  created_at: string;
  expires_at: string;
}

export interface UsageEventsTable {
  id: string;
  user_id: string;
  /** e.g. 'storage.upload', 'storage.delete' (quantity in bytes) */
  kind: string;
  quantity: number;
  ref_id: string | null;
  idempotency_key: string;
  created_at: string;
}

export interface StepInfoOverridesTable {
  step_type_id: string;
  category: string | null;
  /** JSON string[] or null */
  tags: string | null;
  /** JSON { en?: {name?, description?}, cn?: {name?, description?} } */
  texts: string;
  updated_by: string | null;
  updated_at: string;
}

export interface StepInfoEmbeddingsTable {
  step_type_id: string;
  model: string;
  text_hash: string;
  dimensions: number;
  /** JSON number[] */
  vector: string;
  updated_at: string;
}

// ---- the run engine (migration 007) ----

/** Shared by runs, step runs, batches and compute jobs. */
export const RUN_STATES = ['queued', 'running', 'paused', 'succeeded', 'failed', 'cancelled', 'skipped', 'cached'] as const;
export type RunState = (typeof RUN_STATES)[number];
/** A run in one of these will not change again. */
export const FINISHED_RUN_STATES: readonly RunState[] = ['succeeded', 'failed', 'cancelled', 'skipped', 'cached'];

/** all: every step; up_to: the target and what it needs; from: the target and what follows; only: the target alone. */
export const RUN_MODES = ['all', 'up_to', 'from', 'only'] as const;
export type RunMode = (typeof RUN_MODES)[number];

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

export interface DatasetsTable {
  id: string;
  user_id: string;
  name: string;
  storage_key: string;
  /** JSON [{name, type}] */
  columns: string;
  row_count: number;
  bytes: number;
  /** The step run that wrote it; NULL for uploads and once that run is deleted. */
  step_run_id: string | null;
  created_at: string;
  /** NULL: kept until deleted. */
  expires_at: string | null;
  /** JSON DatasetRecipe while deferred (no snapshot yet, row_count unknown); NULL once stored (migration 011). */
  recipe?: string | null;
}

export interface DatasetParentsTable {
  dataset_id: string;
  parent_id: string;
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
  /** JSON string[]: the last lines only. */
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

// ---- conversations with the agents (migration 009) ----

export const AGENT_KINDS = ['general', 'coordinator', 'step_param', 'step_param_evaluation'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];
export type MessageStatus = 'complete' | 'partial' | 'error';

export interface ConversationsTable {
  id: string;
  user_id: string;
  title: string;
  agent: AgentKind;
  workflow_id: string | null;
  step_id: string | null;
  message_count: number;
  created_at: string;
  /** The last message's time: the list's order. */
  updated_at: string;
}

export interface ConversationMessagesTable {
  id: string;
  conversation_id: string;
  seq: number;
  role: 'user' | 'assistant';
  content: string;
  /** JSON MessagePart[] (docs/agents.md) */
  parts: string;
  status: MessageStatus;
  /** JSON CommitCard, or NULL */
  commit_card: string | null;
  /** JSON {input_tokens, output_tokens}, or NULL */
  usage: string | null;
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

export type LedgerKind = 'grant' | 'purchase' | 'usage' | 'refund' | 'adjustment';

/** One append-only credit movement (migration 012); a balance is the sum of a user's rows. */
export interface CreditLedgerTable {
  id: string;
  user_id: string;
  kind: LedgerKind;
  /** Signed micro-credits (1 credit = 1,000,000): positive in, negative out. */
  credits_micro: number;
  /** UNIQUE: the same movement written twice is one row. */
  idempotency_key: string;
  description: string | null;
  /** Usage rows: what was used, how much, the price of one unit in micro-credits. */
  unit: string | null;
  quantity: number | null;
  unit_price_micro: number | null;
  workflow_id: string | null;
  step_id: string | null;
  step_type: string | null;
  run_id: string | null;
  step_run_id: string | null;
  /** Purchase and refund rows: their payment. */
  payment_id: string | null;
  /** Adjustments: the admin who made them. */
  actor_id: string | null;
  created_at: string;
}

export type PaymentStatus = 'pending' | 'succeeded' | 'cancelled' | 'expired' | 'refunded' | 'partially_refunded';

/** A checkout for a credit pack (migration 012): Stripe's, or the built-in test checkout's. */
export interface PaymentsTable {
  id: string;
  user_id: string;
  provider: 'stripe' | 'test';
  provider_session_id: string;
  provider_payment_intent: string | null;
  pack_id: string;
  credits_micro: number;
  amount_cents: number;
  currency: string;
  status: PaymentStatus;
  refunded_cents: number;
  checkout_url: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** Where the buyer returns after paying / cancelling (migration 015); NULL: the defaults. */
  success_path: string | null;
  cancel_path: string | null;
}

/** A payment provider's webhook event already handled (migration 012): replays change nothing. */
export interface PaymentEventsTable {
  event_id: string;
  type: string;
  received_at: string;
}

export type ContactCategory = 'general' | 'billing' | 'technical' | 'feature' | 'account';
export type ContactStatus = 'open' | 'answered' | 'closed';

/** A user's question to support (migration 013). */
export interface ContactQueriesTable {
  id: string;
  user_id: string;
  subject: string;
  message: string;
  category: ContactCategory;
  status: ContactStatus;
  created_at: string;
  updated_at: string;
}

/** A message in a contact query's thread after the first: from the user or from support. */
export interface ContactRepliesTable {
  id: string;
  query_id: string;
  author_id: string | null;
  author_role: 'user' | 'support';
  author_name: string;
  message: string;
  created_at: string;
}

/** A user's request to join the beta programme (migration 013); one per user. */
export interface BetaInterestRequestsTable {
  id: string;
  user_id: string;
  use_case: string;
  company: string | null;
  heard_from: string | null;
  status: 'pending' | 'invited';
  created_at: string;
  updated_at: string;
}

/** An invitation code an admin made (migration 013). */
export interface InvitationCodesTable {
  id: string;
  code: string;
  max_uses: number;
  expires_at: string | null;
  note: string | null;
  created_by: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** One account made with a code (each account uses at most one). */
export interface InvitationCodeUsesTable {
  id: string;
  code_id: string;
  user_id: string;
  created_at: string;
}

/** A tutorial video (migration 013). */
export interface VideosTable {
  id: string;
  title: string;
  description: string;
  url: string;
  thumbnail_url: string | null;
  duration_seconds: number;
  category: 'getting_started' | 'workflows' | 'datasets' | 'agents' | 'billing';
  locale: 'en' | 'cn';
  position: number;
  status: 'published' | 'hidden';
  created_at: string;
  updated_at: string;
}
