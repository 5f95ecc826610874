import { Type, type Static } from '@sinclair/typebox';
import { Id, Notices, pageFields, StringEnum } from '../../http/common.schemas';
import { MAX_SAMPLE_SIZE } from '../../engine/run';
import { RUN_ACTIONS, RUN_MODES, RUN_STARTERS, RUN_STATES, STEP_RUN_ACTIONS } from '../../engine/run/run-states';
import { STATE_REASONS } from '../../engine/run/state-reasons';

// Shapes of the Runs, Execution and Compute jobs calls (spec §6; their payloads are not shown there,
// so these are ours). States, modes and actions are the engine's (run-states.ts).

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const When = Nullable(Type.String({ description: 'ISO 8601' }));

export const IdParams = Type.Object({ id: Id });
export const ExecuteParams = Type.Object({ workflowId: Id, stepId: Id });
export const StepRunParams = Type.Object({ stepRunId: Id });

const executeFields = {
  mode: Type.Optional(
    StringEnum([...RUN_MODES], {
      description:
        "all: the whole workflow; up_to: this step and every step before it; from: this step and every step after it (earlier steps' last outputs are read); only: this step on its inputs' last outputs",
    }),
  ),
  sample_size: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_SAMPLE_SIZE,
      description: 'A quick preview: sources read only their first N records; its datasets are deleted after a day',
    }),
  ),
};
export const ExecuteQuery = Type.Object(executeFields, { additionalProperties: false });
export type ExecuteQuery = Static<typeof ExecuteQuery>;
export const ExecuteBody = Type.Union([Type.Object(executeFields, { additionalProperties: false }), Type.Null()], {
  description: 'The same fields as the query (the query wins); may be empty',
});

export const RunStateOut = StringEnum([...RUN_STATES]);

export const RunErrorOut = Type.Object({ message: Type.String({ description: "In the caller's language" }), key: Type.String() });

export const StateReasonOut = Type.Union(
  [
    Type.Object({
      code: StringEnum([...STATE_REASONS], {
        description:
          'by_user: paused or cancelled by its user; credits: paused when the credits ran out (resumes by itself after a top-up); worker_lost: its worker was killed or lost too often; limit: a limit was reached; error: another failure',
      }),
      message: Type.String({ description: "In the caller's language: for worker_lost, limit and error, the error's text" }),
    }),
    Type.Null(),
  ],
  { description: 'Why it is paused, failed or cancelled; null in any other state' },
);
export type StateReasonOut = Static<typeof StateReasonOut>;

export const StepRunOut = Type.Object({
  id: Type.String(),
  run_id: Type.String(),
  step_id: Type.String(),
  step_type: Type.String(),
  step_name: Type.String(),
  state: RunStateOut,
  attempt: Type.Integer(),
  records_total: Type.Union([Type.Integer(), Type.Null()]),
  records_done: Type.Integer(),
  records_failed: Type.Integer(),
  percent: Type.Union([Type.Number(), Type.Null()], { description: '0–100; null while the total is unknown' }),
  input_dataset_ids: Type.Array(Type.String()),
  output_dataset_id: Nullable(Type.String()),
  error: Type.Union([RunErrorOut, Type.Null()]),
  state_reason: StateReasonOut,
  created_at: Type.String(),
  started_at: When,
  ended_at: When,
});
export type StepRunOut = Static<typeof StepRunOut>;
export const StepRunControlOut = Type.Object({ ...StepRunOut.properties, ...Notices });

export const WorkflowRunSummaryOut = Type.Object({
  id: Type.String(),
  workflow_id: Type.String(),
  workflow_version: Type.Integer(),
  mode: StringEnum([...RUN_MODES]),
  target_step_id: Nullable(Type.String()),
  sample_size: Type.Union([Type.Integer(), Type.Null()]),
  state: RunStateOut,
  /** Why a paused run is paused: 'credits' when the balance ran out (it resumes by itself after a top-up), else null. */
  pause_reason: Type.Union([StringEnum(['credits']), Type.Null()], { description: 'Kept for older clients: state_reason says the same and more' }),
  state_reason: StateReasonOut,
  error: Type.Union([RunErrorOut, Type.Null()]),
  started_by: StringEnum([...RUN_STARTERS], {
    description: "Who or what started it for its owner: 'user' (the owner, in the editor or through the API) or 'agent' (an agent's preview in a conversation)",
  }),
  created_at: Type.String(),
  started_at: When,
  ended_at: When,
});
export type WorkflowRunSummaryOut = Static<typeof WorkflowRunSummaryOut>;

export const WorkflowRunOut = Type.Object({
  ...WorkflowRunSummaryOut.properties,
  step_runs: Type.Array(StepRunOut, { description: 'In the order they run' }),
  records_done: Type.Integer(),
  records_total: Type.Union([Type.Integer(), Type.Null()]),
  percent: Type.Number({ description: "Share of the run's steps finished, 0–100" }),
  ...Notices,
});
export type WorkflowRunOut = Static<typeof WorkflowRunOut>;

export const RunListQuery = Type.Object(
  {
    workflow_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "Only this workflow's runs (a UUID); absent: the caller's runs across all their workflows" }),
    ),
    state: Type.Optional(
      Type.Array(StringEnum([...RUN_STATES]), {
        minItems: 1,
        maxItems: RUN_STATES.length,
        description: 'Only runs in these states: repeat the parameter for several (state=failed&state=cancelled)',
      }),
    ),
    ...pageFields({ size: 20, maxSize: 100 }),
  },
  { additionalProperties: false },
);
export type RunListQuery = Static<typeof RunListQuery>;

/** A run as the lists show it (the executions page, a workflow's run history): the summary and what it did and cost. */
export const RunListItemOut = Type.Object({
  ...WorkflowRunSummaryOut.properties,
  workflow_name: Type.String({ description: "The workflow's name now" }),
  duration_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: 'From its start to its end; null while it has not ended (running, queued or paused)',
  }),
  records: Type.Integer({
    minimum: 0,
    description: 'Records processed: the most any of its step runs processed (a run reading 1,000 records and keeping 10 says 1,000); 0 before any step ran',
  }),
  cost_credits: Type.Number({
    minimum: 0,
    description: "Credits it was charged: the sum of the credit ledger's usage rows for it (the billing page's records for this run); 0 when none",
  }),
});
export type RunListItemOut = Static<typeof RunListItemOut>;
export const RunListOut = Type.Object({ items: Type.Array(RunListItemOut), total: Type.Integer(), page: Type.Integer(), page_size: Type.Integer() });

export const RunControlIn = Type.Object({ action: StringEnum([...RUN_ACTIONS]) }, { additionalProperties: false });
export const StepRunControlIn = Type.Object({ action: StringEnum([...STEP_RUN_ACTIONS]) }, { additionalProperties: false });

export const ProgressOut = Type.Object({
  step_run_id: Type.String(),
  state: RunStateOut,
  state_reason: StateReasonOut,
  records_done: Type.Integer(),
  records_total: Type.Union([Type.Integer(), Type.Null()]),
  records_failed: Type.Integer(),
  percent: Type.Union([Type.Number(), Type.Null()]),
  rate_per_second: Type.Union([Type.Number(), Type.Null()], { description: 'Records per second since the step started' }),
  eta_seconds: Type.Union([Type.Number(), Type.Null()], { description: 'At the current rate; null when unknown or finished' }),
  started_at: When,
  updated_at: Type.String(),
  ended_at: When,
});
export type ProgressOut = Static<typeof ProgressOut>;

export const EventsQuery = Type.Object(
  { after: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, default: 0, description: 'Only events after this sequence number (Last-Event-ID works too)' }) },
  { additionalProperties: false },
);

export const ComputeJobOut = Type.Object({
  id: Type.String(),
  step_run_id: Type.String(),
  state: RunStateOut,
  worker: Nullable(Type.String()),
  attempt: Type.Integer(),
  queued_at: Type.String(),
  started_at: When,
  ended_at: When,
  cpu_ms: Type.Integer({
    description:
      "CPU time (user + system, all threads) of the whole worker process while this job ran: DuckDB's threads, other steps running at the same time and, when embedded, the API are in it. Not this step's alone; see `resources_of`.",
  }),
  peak_rss_bytes: Type.Union([Type.Integer(), Type.Null()], {
    description:
      "The worker process's peak resident memory (RSS) while this job ran, sampled at its progress reports: shared with everything else the process held. Not this step's alone; see `resources_of`.",
  }),
  resources_of: StringEnum(['process'], {
    description:
      "Whose CPU and memory `cpu_ms` and `peak_rss_bytes` measure: always 'process' (the worker's). Steps share a process, its DuckDB threads and its heap, so no per-step figure can be measured honestly.",
  }),
  cost_credits: Type.Number(),
  log: Type.Array(
    Type.Object({
      at: Nullable(Type.String({ description: 'When the line was written (ISO 8601, UTC); null on a line kept from before times were apart' })),
      text: Type.String({ description: "The line in the reader's language (Accept-Language)" }),
    }),
    { description: 'The last log lines of this job, oldest first' },
  ),
  log_lines: Type.Array(Type.String(), { description: 'The same lines as plain text, each after its ISO time (kept for scripts; `log` has the time apart)' }),
  log_dropped: Type.Integer({ description: 'Older log lines left out' }),
  error: Type.Union([RunErrorOut, Type.Null()]),
});
export type ComputeJobOut = Static<typeof ComputeJobOut>;

export const ComputeDetailsIn = Type.Object({ step_run_ids: Type.Array(Id, { minItems: 1, maxItems: 100 }) }, { additionalProperties: false });
export const ComputeStepRunIn = Type.Object({ step_run_id: Id }, { additionalProperties: false });
export const ComputeJobsOut = Type.Object({ items: Type.Array(ComputeJobOut) });
export const StepRunComputeOut = Type.Object({ step_run: StepRunOut, items: Type.Array(ComputeJobOut), ...Notices });
