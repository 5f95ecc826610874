import { notFound } from '../../lib/errors';
import type { MessageValues } from '../../i18n/messages';
import type { RunEngine, RunSnapshot, StoredError } from '../../engine/run';
import type { RunEventBus } from './run-events';
import { DONE_STATES, isFinal, type RunState } from '../../engine/run/run-states';
import type { StateReason } from '../../engine/run/state-reasons';
import { logLineOut } from '../../engine/run-log';
import type { ComputeJobRow, StepRunRow, WorkflowRunRow } from './runs.repository';
import type { ComputeJobOut, ProgressOut, StepRunOut, WorkflowRunOut, WorkflowRunSummaryOut } from './runs.schemas';

/** The events that end a run (see RunEngine.advance and controlRun). */
const RUN_END_EVENTS = new Set(['run_succeeded', 'run_failed', 'run_cancelled']);
/** How long a stream waits for the end event of a run whose state already says it ended. */
const END_EVENT_GRACE_MS = 5000;
/** How long reading an ended run waits for its deferred outputs' counts; a longer count shows on the next read. */
const COUNT_WAIT_MS = 2000;

export type Translate = (key: string, values?: MessageValues) => string;

const num = (v: unknown) => Number(v ?? 0);
const REASONED_STATES: readonly string[] = ['paused', 'failed', 'cancelled'];
const nullableNum = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function errorOut(text: string | null, t: Translate) {
  if (!text) return null;
  try {
    const e = JSON.parse(text) as StoredError;
    return { key: e.key, message: t(e.key, e.values) };
  } catch {
    return { key: 'server.runs.unexpected', message: t('server.runs.unexpected', { reason: text }) };
  }
}

/** Reasons given by their code alone; the others' text is the stored error. */
const REASON_KEYS: Partial<Record<StateReason, Partial<Record<RunState, string>>>> = {
  by_user: { paused: 'server.runs.reason.pausedByUser', cancelled: 'server.runs.reason.cancelledByUser' },
  credits: { paused: 'server.runs.reason.credits' },
};
/** When a failure's error was not kept (rows from before migration 016 or a lost write). */
const FALLBACK_KEYS: Record<StateReason, string> = {
  by_user: 'server.runs.reason.cancelledByUser',
  credits: 'server.runs.reason.credits',
  worker_lost: 'server.runs.workerLost',
  limit: 'server.runs.stepFailed',
  error: 'server.runs.stepFailed',
};

/** Why a paused, failed or cancelled run or step run is so, in the reader's language; null in other states. */
export function stateReasonOut(row: { state: string; state_reason: StateReason | null; error: string | null }, t: Translate) {
  if (!REASONED_STATES.includes(row.state) || !row.state_reason) return null;
  const code = row.state_reason;
  const own = REASON_KEYS[code]?.[row.state as RunState];
  const message = own ? t(own) : (errorOut(row.error, t)?.message ?? t(FALLBACK_KEYS[code]));
  return { code, message };
}

function percentOf(done: number, total: number | null, state: string): number | null {
  if (state === 'succeeded' || state === 'cached') return 100;
  if (total === null) return null;
  return total === 0 ? 0 : Math.min(100, Math.round((done / total) * 1000) / 10);
}

/** Reading runs for people: views, progress, the event stream; changes go through the RunEngine. */
export class RunsService {
  constructor(
    private readonly engine: RunEngine,
    private readonly bus: RunEventBus,
  ) {}

  private get repo() {
    return this.engine.repo;
  }

  async run(userId: string, runId: string, t: Translate): Promise<WorkflowRunOut> {
    const run = await this.repo.findOwnedRun(userId, runId);
    if (!run) throw notFound('server.runs.notFound');
    const snapshot = JSON.parse(run.snapshot) as RunSnapshot;
    const order = new Map(snapshot.steps.map((s, i) => [s.id, i]));
    const names = new Map(snapshot.steps.map((s) => [s.id, s.name]));
    const stepRuns = (await this.repo.stepRunsOf(runId)).sort((a, b) => (order.get(a.step_id) ?? 0) - (order.get(b.step_id) ?? 0));
    await this.countDeferredOutputs(userId, run.state, stepRuns);
    const views = stepRuns.map((s) => this.stepRunView(s, names.get(s.step_id) ?? s.step_type, t));
    const finished = stepRuns.filter((s) => isFinal(s.state)).length;
    const totals = views.map((v) => v.records_total);
    return {
      ...summaryView(run, t),
      step_runs: views,
      records_done: views.reduce((n, v) => n + v.records_done, 0),
      records_total: totals.every((x) => x !== null) ? totals.reduce<number>((n, x) => n + (x ?? 0), 0) : null,
      percent: stepRuns.length ? Math.round((finished / stepRuns.length) * 1000) / 10 : 100,
    };
  }

  /**
   * A run that has ended, read for the first time: its finished steps whose output is deferred
   * (SQL steps, imports) get their counts (engine/run/output-counts.ts), waited for up to
   * COUNT_WAIT_MS. Not while the run is open, where a count would take DuckDB from the run itself.
   */
  private async countDeferredOutputs(userId: string, runState: string, stepRuns: StepRunRow[]): Promise<void> {
    if (!isFinal(runState)) return;
    const uncounted = stepRuns.filter(
      (s): s is StepRunRow & { output_dataset_id: string } => DONE_STATES.includes(s.state as RunState) && s.records_total === null && !!s.output_dataset_id,
    );
    if (!uncounted.length) return;
    const counts = await this.engine.outputCounts.of(userId, uncounted, COUNT_WAIT_MS);
    for (const s of uncounted) {
      const count = counts.get(s.id);
      if (count !== undefined) Object.assign(s, { records_total: count, records_done: count });
    }
  }

  async list(userId: string, workflowId: string, page: number, pageSize: number, t: Translate) {
    const filter = { userId, workflowId };
    const [rows, total] = await Promise.all([this.repo.listRuns(filter, pageSize, (page - 1) * pageSize), this.repo.countRuns(filter)]);
    return { items: rows.map((r) => summaryView(r, t)), total, page, page_size: pageSize };
  }

  async stepRun(userId: string, stepRunId: string, t: Translate): Promise<StepRunOut> {
    const s = await this.repo.findOwnedStepRun(userId, stepRunId);
    if (!s) throw notFound('server.runs.stepRunNotFound');
    const run = (await this.repo.findRun(s.run_id))!;
    const step = (JSON.parse(run.snapshot) as RunSnapshot).steps.find((x) => x.id === s.step_id);
    return this.stepRunView(s, step?.name ?? s.step_type, t);
  }

  async progress(userId: string, stepRunId: string, t: Translate): Promise<ProgressOut> {
    const s = await this.repo.findOwnedStepRun(userId, stepRunId);
    if (!s) throw notFound('server.runs.stepRunNotFound');
    const done = num(s.records_done);
    const total = nullableNum(s.records_total);
    const started = s.started_at ? Date.parse(s.started_at) : null;
    const until = s.ended_at ? Date.parse(s.ended_at) : Date.now();
    const seconds = started === null ? 0 : (until - started) / 1000;
    const rate = seconds > 0 && done > 0 ? Math.round((done / seconds) * 10) / 10 : null;
    const eta = !isFinal(s.state) && rate && total !== null && total >= done ? Math.round((total - done) / rate) : null;
    return {
      step_run_id: s.id,
      state: s.state as RunState,
      state_reason: stateReasonOut(s, t),
      records_done: done,
      records_total: total,
      records_failed: num(s.records_failed),
      percent: percentOf(done, total, s.state),
      rate_per_second: rate,
      eta_seconds: eta,
      started_at: s.started_at,
      updated_at: s.updated_at,
      ended_at: s.ended_at,
    };
  }

  async computeJobs(userId: string, stepRunIds: string[], t: Translate): Promise<ComputeJobOut[]> {
    const owned: string[] = [];
    for (const id of new Set(stepRunIds)) if (await this.repo.findOwnedStepRun(userId, id)) owned.push(id);
    if (!owned.length) throw notFound('server.runs.stepRunNotFound');
    return (await this.repo.computeJobsOf(owned)).map((j) => computeJobView(j, t));
  }

  /**
   * The run's events from `after` on, as server-sent events, until the run is final and every event
   * is sent or the client goes. Each event: `id: <seq>`, `event: <type>`, `data: {…}`.
   */
  async *events(userId: string, runId: string, after: number, signal: AbortSignal): AsyncGenerator<string> {
    const run = await this.repo.findOwnedRun(userId, runId);
    if (!run) throw notFound('server.runs.notFound');
    let seq = after;
    /** When the run was first seen ended without its end event yet. */
    let endedSince: number | null = null;
    yield 'retry: 2000\n\n';
    while (!signal.aborted) {
      // Listening starts before the reads: an event written while they run wakes this loop at once
      // (listening after them lost it, and the stream sat until the next event or 15 s).
      const stopWaiting = new AbortController();
      const woken = this.bus.wait(runId, endedSince === null ? 15_000 : 100, AbortSignal.any([signal, stopWaiting.signal]));
      try {
        const events = await this.repo.eventsAfter(runId, seq, 200);
        for (const e of events) {
          seq = e.seq;
          const data = { seq: e.seq, type: e.type, step_run_id: e.step_run_id, created_at: e.created_at, ...(JSON.parse(e.payload) as object) };
          yield `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(data)}\n\n`;
        }
        if (events.length === 200) continue;
        const current = await this.repo.findRun(runId);
        if (!current) return;
        if (isFinal(current.state)) {
          // The state is set just before the end event is written: end once that event is sent too,
          // or the stream closed without saying how the run ended. Meanwhile it looks every 100 ms (a
          // wake-up may be of an earlier event); a process that died between the two never writes
          // it, so after END_EVENT_GRACE_MS the stream ends anyway. Newest event and its number in
          // one read: one written since the read above is sent before the stream ends on it.
          const last = await this.repo.lastEvent(runId);
          if (last && last.seq > seq) continue;
          if (RUN_END_EVENTS.has(last?.type ?? '')) return;
          endedSince ??= Date.now();
          if (Date.now() - endedSince > END_EVENT_GRACE_MS) return;
        } else endedSince = null;
        await woken;
        // A comment keeps proxies from closing a quiet stream.
        if (!signal.aborted) yield ': keep-alive\n\n';
      } finally {
        stopWaiting.abort();
      }
    }
  }

  stepRunView(s: StepRunRow, name: string, t: Translate): StepRunOut {
    const done = num(s.records_done);
    const total = nullableNum(s.records_total);
    return {
      id: s.id,
      run_id: s.run_id,
      step_id: s.step_id,
      step_type: s.step_type,
      step_name: name,
      state: s.state as RunState,
      attempt: num(s.attempt),
      records_total: total,
      records_done: done,
      records_failed: num(s.records_failed),
      percent: percentOf(done, total, s.state),
      input_dataset_ids: JSON.parse(s.input_dataset_ids) as string[],
      output_dataset_id: s.output_dataset_id,
      error: errorOut(s.error, t),
      state_reason: stateReasonOut(s, t),
      created_at: s.created_at,
      started_at: s.started_at,
      ended_at: s.ended_at,
    };
  }
}

export function summaryView(run: Omit<WorkflowRunRow, 'snapshot' | 'user_id'>, t: Translate): WorkflowRunSummaryOut {
  return {
    id: run.id,
    workflow_id: run.workflow_id,
    workflow_version: num(run.workflow_version),
    mode: run.mode as WorkflowRunSummaryOut['mode'],
    target_step_id: run.target_step_id,
    sample_size: nullableNum(run.sample_size),
    state: run.state as RunState,
    pause_reason: run.state === 'paused' ? run.pause_reason : null,
    state_reason: stateReasonOut(run, t),
    error: errorOut(run.error, t),
    started_by: run.started_by,
    created_at: run.created_at,
    started_at: run.started_at,
    ended_at: run.ended_at,
  };
}

function computeJobView(j: ComputeJobRow, t: Translate): ComputeJobOut {
  const log = (JSON.parse(j.log_lines) as unknown[]).map((line) => logLineOut(line, t));
  return {
    id: j.id,
    step_run_id: j.step_run_id,
    state: j.state as RunState,
    worker: j.worker,
    attempt: num(j.attempt),
    queued_at: j.queued_at,
    started_at: j.started_at,
    ended_at: j.ended_at,
    cpu_ms: num(j.cpu_ms),
    peak_rss_bytes: nullableNum(j.peak_rss_bytes),
    resources_of: 'process',
    cost_credits: num(j.cost_micros) / 1_000_000,
    log,
    log_lines: log.map((line) => (line.at ? `${line.at} ${line.text}` : line.text)),
    log_dropped: num(j.log_dropped),
    error: errorOut(j.error, t),
  };
}
