import { http, HttpResponse } from 'msw';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { api } from '../../test/handlers';
import { server } from '../../test/server';
import { serveEditor, workflowWith } from '../workflows/editor/editorFixtures';
import type { ComputeJob, RunListItem, StepRun, WorkflowRun } from './runsApi';

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
    state_reason: null,
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
    state_reason: null,
    error: null,
    started_by: 'user',
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

/** A run as the lists (the history, the executions page) show it: the summary and its figures. */
export function summaryOf(
  run: WorkflowRun,
  figures: Partial<Pick<RunListItem, 'workflow_name' | 'duration_ms' | 'records' | 'cost_credits'>> = {},
): RunListItem {
  const { step_runs: _s, records_done: _d, records_total: _t, percent: _p, message: _m, warnings: _w, modal: _o, ...summary } = run;
  return { ...summary, workflow_name: 'Sales report', duration_ms: null, records: 0, cost_credits: 0, ...figures };
}

export const load: StepOut = {
  id: 's-1',
  workflow_id: 'w-1',
  step_type: 'import_csv',
  name: 'Load leads',
  param_inputs: {},
  inputs: [],
  position: { x: 0, y: 0 },
};
export const keep: StepOut = {
  id: 's-2',
  workflow_id: 'w-1',
  step_type: 'filter',
  name: 'Keep big ones',
  param_inputs: {},
  inputs: ['s-1'],
  position: { x: 0, y: 140 },
};

/**
 * Serves these runs of w-1 (newest first; a function is asked at each read, for runs that change):
 * the history's list of them, and each by its id (404 for another).
 */
export function serveRuns(runs: WorkflowRun[] | (() => WorkflowRun[])): void {
  const runsNow = typeof runs === 'function' ? runs : () => runs;
  server.use(
    http.get(api('/workflow-runs/'), () =>
      HttpResponse.json({ items: runsNow().map((run) => summaryOf(run)), total: runsNow().length, page: 1, page_size: 20 }),
    ),
    http.get(api('/workflow-runs/:id'), ({ params }) => {
      const run = runsNow().find((r) => r.id === params.id);
      return run ? HttpResponse.json(run) : HttpResponse.json({ detail: 'Run not found.' }, { status: 404 });
    }),
  );
}

/** What a control call did: the run as it is now, and the message the server answers with. */
export type ControlAnswer = (run: WorkflowRun, target: string | null, action: string) => { run: WorkflowRun; message: string };

/**
 * Serves the editor of w-1 (Load leads → Keep big ones) with `run` as its newest run, its event
 * stream open and quiet; each control call is recorded ("run <action>" or "<step run id> <action>")
 * and answered by `answer`. Returns the calls made.
 */
export function serveEditorRun(run: WorkflowRun, answer: ControlAnswer): string[] {
  const sent: string[] = [];
  let current = run;
  serveEditor({ workflow: workflowWith([load, keep]) });
  serveRuns(() => [current]);
  server.use(
    http.get(
      api('/workflow-runs/r-1/events'),
      () => new HttpResponse(new ReadableStream({ start: () => undefined }), { headers: { 'content-type': 'text/event-stream' } }),
    ),
    http.get(api('/step-runs/:id/progress'), () => HttpResponse.json({ detail: 'Not needed.' }, { status: 404 })),
    http.post(api('/workflow-runs/r-1/control'), async ({ request }) => {
      const { action } = (await request.json()) as { action: string };
      sent.push(`run ${action}`);
      const done = answer(current, null, action);
      current = done.run;
      return HttpResponse.json({ ...current, message: done.message });
    }),
    http.post(api('/step-runs/:id/control'), async ({ params, request }) => {
      const { action } = (await request.json()) as { action: string };
      const id = params.id as string;
      sent.push(`${id} ${action}`);
      const done = answer(current, id, action);
      current = done.run;
      return HttpResponse.json({ ...current.step_runs.find((s) => s.id === id)!, message: done.message });
    }),
  );
  return sent;
}

/** A compute job of step run sr-s-1 as the details endpoint answers it; its log lines' times apart (UTC). */
export function computeJobOf(changes: Partial<ComputeJob> = {}): ComputeJob {
  return {
    id: 'cj-1',
    step_run_id: 'sr-s-1',
    state: 'succeeded',
    worker: 'worker-a:4242',
    attempt: 1,
    queued_at: '2026-11-20T10:00:00.000Z',
    started_at: null,
    ended_at: null,
    cpu_ms: 1500,
    peak_rss_bytes: 52428800,
    resources_of: 'process',
    cost_credits: 0,
    log: [],
    log_lines: [],
    log_dropped: 0,
    error: null,
    ...changes,
  };
}
