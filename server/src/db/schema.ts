// Row types of every table, as Kysely sees them. Timestamps are ISO-8601 strings in UTC on both
// databases (timestamptz on PostgreSQL is parsed back to ISO strings in database.ts), ids are
// text UUIDs, so the services never branch on the dialect.
//
// Each area's tables are in tables/<area>.ts; `Database` names every table once, here.

import type { PasswordResetTokensTable, SessionsTable, UsersTable } from './tables/users';
import type { WorkflowCommitsTable, WorkflowStepsTable, WorkflowUndoEntriesTable, WorkflowVariablesTable, WorkflowsTable } from './tables/workflows';
import type { FilesTable, FoldersTable, PendingUploadsTable } from './tables/files';
import type { CreditLedgerTable, UsageEventsTable } from './tables/usage';
import type { StepInfoEmbeddingsTable, StepInfoOverridesTable } from './tables/step-infos';
import type {
  AiAnswerCacheTable,
  ComputeJobsTable,
  RunEventsTable,
  StepRunBatchesTable,
  StepRunCallsTable,
  StepRunsTable,
  WorkflowRunsTable,
} from './tables/runs';
import type { DatasetParentsTable, DatasetsTable } from './tables/datasets';
import type { ConversationMessagesTable, ConversationsTable } from './tables/conversations';
import type { PaymentEventsTable, PaymentsTable } from './tables/payments';
import type { ContactQueriesTable, ContactRepliesTable } from './tables/contact';
import type { BetaInterestRequestsTable, InvitationCodeUsesTable, InvitationCodesTable } from './tables/beta';
import type { VideosTable } from './tables/videos';

export * from './tables/users';
export * from './tables/workflows';
export * from './tables/files';
export * from './tables/usage';
export * from './tables/step-infos';
export * from './tables/runs';
export * from './tables/datasets';
export * from './tables/conversations';
export * from './tables/payments';
export * from './tables/contact';
export * from './tables/beta';
export * from './tables/videos';

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
  step_run_calls: StepRunCallsTable;
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
