import type { Static } from '@sinclair/typebox';
import type {
  ComputeJobOut,
  ProgressOut,
  RunListItemOut,
  RunListOut,
  StateReasonOut,
  StepRunComputeOut,
  StepRunOut,
  WorkflowRunOut,
} from '../../../server/src/modules/runs/runs.schemas';
import type { RunAction, RunMode, RunStarter, RunState, StepRunAction } from '../../../server/src/engine/run/run-states';
import { baseApi } from '../../services/baseApi';
import { isOpenState } from './runLook';

// Spec areas "Execution", "Runs" and "Compute jobs": start a run from a step, read a run with its
// step runs, a workflow's run history, control runs and step runs, and a step run's compute jobs.

export type WorkflowRun = WorkflowRunOut;
export type StepRun = StepRunOut;
export type StepRunProgress = ProgressOut;
/** Why a run or step run is paused, failed or cancelled: a code and the server's words for it. */
export type StateReason = NonNullable<StateReasonOut>;
export type ComputeJob = ComputeJobOut;
export type RunList = Static<typeof RunListOut>;
/** A run as the lists show it: with its workflow's name, duration, records, cost and who started it. */
export type RunListItem = RunListItemOut;
export type StepRunDetails = Static<typeof StepRunComputeOut>;
export type { RunAction, RunMode, RunStarter, RunState, StepRunAction };

export interface ListRunsArgs {
  /** One workflow's runs (the editor's run history); absent: every run of the user (the executions page). */
  workflowId?: string;
  /** Only runs in these states; absent or empty: all. */
  states?: readonly RunState[];
  page?: number;
  pageSize?: number;
}

/** The list's query string: `state` is repeated, one per state (the server reads it as a list). */
export function runListUrl({ workflowId, states = [], page = 1, pageSize = 20 }: ListRunsArgs): string {
  const query = new URLSearchParams();
  if (workflowId) query.set('workflow_id', workflowId);
  for (const state of states) query.append('state', state);
  query.set('page', String(page));
  query.set('page_size', String(pageSize));
  return `/workflow-runs/?${query.toString()}`;
}

/** The size of a preview run ("Preview on 100 records"). */
export const PREVIEW_SAMPLE_SIZE = 100;

export interface ExecuteArgs {
  workflowId: string;
  stepId: string;
  mode: RunMode;
  sampleSize?: number;
}

const runTags = (run: { id: string; workflow_id: string } | undefined) =>
  run
    ? [
        { type: 'WorkflowRun' as const, id: run.id },
        { type: 'WorkflowRun' as const, id: `LIST:${run.workflow_id}` },
        { type: 'WorkflowRun' as const, id: 'LIST' },
      ]
    : [];

/**
 * What a run's end makes stale: the lists' copy of its state, the datasets it wrote, and the
 * columns its outputs now show to the column pickers (variable-fields).
 */
export const endedRunTags = (workflowId: string) => [
  { type: 'WorkflowRun' as const, id: 'LIST' },
  'Dataset' as const,
  { type: 'Variable' as const, id: workflowId },
];

/**
 * A run answered by a start or a control call, as the run query holds it: without the call's own
 * notices (message, warnings, modal). Put into the cache with them, the upsert's own "fulfilled"
 * would show the same toast a second time (the notices middleware reads every fulfilled result).
 */
function asCachedRun(answer: WorkflowRun): WorkflowRun {
  const { message: _message, warnings: _warnings, modal: _modal, ...run } = answer as WorkflowRun & { message?: unknown; warnings?: unknown; modal?: unknown };
  return run;
}

export const runsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    executeStep: build.mutation<WorkflowRun, ExecuteArgs>({
      query: ({ workflowId, stepId, mode, sampleSize }) => ({
        url: `/workflow-execution/${workflowId}/steps/${stepId}/execute`,
        method: 'POST',
        params: { mode, ...(sampleSize ? { sample_size: sampleSize } : {}) },
        body: {},
      }),
      // Every list of runs shows the new one: the workflow's history and the executions page.
      invalidatesTags: [{ type: 'WorkflowRun', id: 'LIST' }],
      // The new run is put in the cache at once: the canvas and the panel show it without a fetch.
      async onQueryStarted(_args, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(runsApi.util.upsertQueryData('getRun', data.id, asCachedRun(data)));
          // A short run may have ended before its start was answered: nobody will see it end, so
          // what its end makes stale is refreshed now (else the pickers miss a preview's columns).
          if (!isOpenState(data.state)) dispatch(runsApi.util.invalidateTags(endedRunTags(data.workflow_id)));
        } catch {
          // The notices explain a refused start.
        }
      },
    }),
    getRun: build.query<WorkflowRun, string>({
      query: (id) => `/workflow-runs/${id}`,
      providesTags: (result, _e, id) => [{ type: 'WorkflowRun', id }, ...(result ? result.step_runs.map((s) => ({ type: 'StepRun' as const, id: s.id })) : [])],
    }),
    listRuns: build.query<RunList, ListRunsArgs>({
      query: runListUrl,
      providesTags: (_r, _e, { workflowId }) => [
        ...(workflowId ? [{ type: 'WorkflowRun' as const, id: `LIST:${workflowId}` }] : []),
        { type: 'WorkflowRun', id: 'LIST' },
      ],
    }),
    controlRun: build.mutation<WorkflowRun, { runId: string; action: RunAction }>({
      query: ({ runId, action }) => ({ url: `/workflow-runs/${runId}/control`, method: 'POST', body: { action } }),
      invalidatesTags: (result) => runTags(result),
      async onQueryStarted({ runId }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(runsApi.util.upsertQueryData('getRun', runId, asCachedRun(data)));
        } catch {
          // The notices explain a refused action.
        }
      },
    }),
    controlStepRun: build.mutation<StepRun, { stepRunId: string; runId: string; action: StepRunAction }>({
      query: ({ stepRunId, action }) => ({ url: `/step-runs/${stepRunId}/control`, method: 'POST', body: { action } }),
      invalidatesTags: (_r, _e, { runId, stepRunId }) => [
        { type: 'WorkflowRun', id: runId },
        { type: 'StepRun', id: stepRunId },
        { type: 'ComputeJob', id: stepRunId },
      ],
    }),
    getStepRunProgress: build.query<StepRunProgress, string>({
      query: (id) => `/step-runs/${id}/progress`,
      providesTags: (_r, _e, id) => [{ type: 'StepRun', id }],
    }),
    getStepRunDetails: build.query<StepRunDetails, string>({
      query: (id) => `/compute-jobs/step-runs/${id}/details`,
      providesTags: (_r, _e, id) => [
        { type: 'ComputeJob', id },
        { type: 'StepRun', id },
      ],
    }),
  }),
});

export const {
  useExecuteStepMutation,
  useGetRunQuery,
  useListRunsQuery,
  useControlRunMutation,
  useControlStepRunMutation,
  useGetStepRunProgressQuery,
  useGetStepRunDetailsQuery,
} = runsApi;
