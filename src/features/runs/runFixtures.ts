import type { StepRun, WorkflowRun } from './runsApi';

// Runs of workflow w-1 (editorFixtures) as the server answers them, for the run screens' tests.

export function stepRunOf(stepId: string, stepName: string, changes: Partial<StepRun> = {}): StepRun {
  return {
    id: `sr-${stepId}`,
    run_id: 'r-1',
    step_id: stepId,
    step_type: 'import_csv',
    step_name: stepName,
    state: 'queued',
    attempt: 1,
    records_total: null,
    records_done: 0,
    records_failed: 0,
    percent: null,
    input_dataset_ids: [],
    output_dataset_id: null,
    error: null,
    created_at: '2026-11-20T10:00:00.000Z',
    started_at: null,
    ended_at: null,
    ...changes,
  };
}

export function runOf(stepRuns: StepRun[], changes: Partial<WorkflowRun> = {}): WorkflowRun {
  const finished = stepRuns.filter((s) => !['queued', 'running', 'paused'].includes(s.state)).length;
  return {
    id: 'r-1',
    workflow_id: 'w-1',
    workflow_version: 1,
    mode: 'all',
    target_step_id: null,
    sample_size: null,
    state: 'running',
    pause_reason: null,
    error: null,
    created_at: '2026-11-20T10:00:00.000Z',
    started_at: '2026-11-20T10:00:00.000Z',
    ended_at: null,
    step_runs: stepRuns,
    records_done: 0,
    records_total: null,
    percent: stepRuns.length ? (finished / stepRuns.length) * 100 : 0,
    ...changes,
  };
}

/** The history list's summary of a run. */
export function summaryOf(run: WorkflowRun) {
  const { step_runs: _s, records_done: _d, records_total: _t, percent: _p, message: _m, ...summary } = run;
  return summary;
}
