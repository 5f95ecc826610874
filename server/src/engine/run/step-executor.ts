import os from 'node:os';
import type { Job } from '../../jobs/queue';
import { DomainError, ValidationFailed } from '../../lib/errors';
import type { StepRunRow, WorkflowRunRow } from '../../modules/runs/runs.repository';
import { storedLogLine, type LogKey, type LogValue, type LogValues, type StoredLogLine } from '../run-log';
import { now, type EngineCore } from './engine-core';
import { isDone } from './run-states';
import type { RunSnapshot, Scheduler, StepRunJob } from './scheduler';
import { failureReason, MAX_LOST_WORKERS } from './state-reasons';
import type { StepKinds } from './step-kinds';

/**
 * A running step looks at its own state whenever its run has news (a pause or a cancel from any
 * process wakes it through the run's events, across processes by Redis) and at least this often,
 * in case a wake-up was lost.
 */
const STATE_POLL_MS = 1000;
/** Log lines kept per compute job. */
const LOG_LINES = 200;

/** A failure as stored in `error`: the catalog key and values, so each reader gets their language. */
export interface StoredError {
  key: string;
  values: Record<string, string | number>;
}

/**
 * Executes one step run as a queued job:
 *
 *   job ─► claim (queued|running → running) ─► cached? ─► run by kind ─► dataset registered ─► succeeded
 *        └─► advance(): skip what follows a failure, enqueue what became ready, end the run when all are final
 *
 * Each try is a compute job (its worker, CPU, peak memory and last log lines). A step run stops
 * when someone pauses or cancels it from any process, and goes back to the queue on shutdown.
 */
export class StepExecutor {
  private readonly worker = `${os.hostname()}:${process.pid}`;

  constructor(
    private readonly core: EngineCore,
    private readonly scheduler: Scheduler,
    private readonly kinds: StepKinds,
    private readonly pauseForCredits: (runId: string) => Promise<void>,
  ) {}

  async handle(job: Job<StepRunJob>): Promise<void> {
    const repo = this.core.runs;
    const stepRun = await repo.findStepRun(job.data.stepRunId);
    if (!stepRun || (stepRun.state !== 'queued' && stepRun.state !== 'running')) return;
    const run = await repo.findRun(stepRun.run_id);
    if (!run || run.state !== 'running') return;
    await this.execute(run, stepRun);
    await this.scheduler.advance(run.id);
  }

  /** On shutdown: steps running here stop at their next check and go back to the queue. */
  stopAll(): void {
    this.core.abort(this.core.running.keys(), 'shutdown');
  }

  private async execute(run: WorkflowRunRow, stepRun: StepRunRow): Promise<void> {
    const { deps } = this.core;
    const repo = this.core.runs;
    const snapshot = JSON.parse(run.snapshot) as RunSnapshot;
    const step = snapshot.steps.find((s) => s.id === stepRun.step_id);
    if (!step) return;
    const siblings = new Map((await repo.stepRunsOf(run.id)).map((s) => [s.step_id, s]));
    const inputIds: string[] = [];
    for (const up of step.inputs) {
      const upRun = siblings.get(up);
      if (!upRun) inputIds.push(snapshot.external[up]);
      else if (isDone(upRun.state) && upRun.output_dataset_id) inputIds.push(upRun.output_dataset_id);
      else return; // not ready: advance() enqueues it again when its inputs are done
    }
    const startedAt = stepRun.started_at ?? now();
    if (!(await repo.setStepRunState(stepRun.id, 'running', ['queued', 'running'], { started_at: startedAt, input_dataset_ids: JSON.stringify(inputIds) })))
      return;
    await repo.abandonComputeJobs(stepRun.id);
    // A step that takes its worker down with it (out of memory, say) would take down every worker
    // after it, on every restart: after MAX_LOST_WORKERS it fails, saying why.
    const lost = await repo.lostWorkers(stepRun.id, stepRun.attempt);
    if (lost >= MAX_LOST_WORKERS) {
      const error: StoredError = { key: 'server.runs.workerLostTooOften', values: { count: lost } };
      if (await repo.setStepRunState(stepRun.id, 'failed', ['running'], { error: JSON.stringify(error), ended_at: now(), state_reason: 'worker_lost' }))
        await this.core.emit(run.id, stepRun.id, 'step_failed', { step_id: step.id, error, reason: 'worker_lost' });
      return;
    }
    await this.core.emit(run.id, stepRun.id, 'step_started', { step_id: step.id, attempt: stepRun.attempt });

    const controller = new AbortController();
    let endExecution = () => {};
    const ended = new Promise<void>((resolve) => (endExecution = resolve));
    this.core.running.set(stepRun.id, { runId: run.id, controller, ended });
    const stopWatching = new AbortController();
    const watching = this.watch(stepRun.id, run.id, controller, stopWatching.signal);
    const logLines: StoredLogLine[] = [];
    let logDropped = 0;
    const log = (key: LogKey, values?: LogValues) => {
      logLines.push(storedLogLine(now(), key, values));
      if (logLines.length > LOG_LINES) {
        logLines.shift();
        logDropped++;
      }
    };
    const computeJobId = await repo.startComputeJob(stepRun.id, this.worker, stepRun.attempt + 1);
    // The process's CPU and memory, not the step's: steps share the process and DuckDB's threads
    // (the compute details say so, `resources_of: 'process'`).
    const cpuBefore = process.cpuUsage();
    let peakRss = process.memoryUsage.rss();
    const files = deps.userFiles(run.user_id, stepRun.id);
    let outcome: 'succeeded' | 'failed' | 'cancelled' | 'paused' | 'cached' = 'failed';
    let error: StoredError | null = null;
    try {
      await files.prepare();
      const result = await this.kinds.run({
        run,
        stepRun,
        step,
        snapshot,
        inputIds,
        controller,
        log,
        files,
        onProgress: () => (peakRss = Math.max(peakRss, process.memoryUsage.rss())),
      });
      outcome = result.cached ? 'cached' : 'succeeded';
      const finished = await repo.setStepRunState(stepRun.id, outcome, ['running', 'paused'], {
        output_dataset_id: result.output.id,
        // A deferred output (not written yet, see engine/datasets/recipe.ts) has no count yet.
        records_total: result.output.recipe ? (result.counted ?? null) : result.output.rowCount,
        records_done: result.output.recipe ? (result.counted ?? 0) : (result.done ?? result.output.rowCount),
        records_failed: result.failed,
        ended_at: now(),
        error: null,
        cache_key: result.cacheKey,
      });
      if (finished) {
        const records = result.output.recipe ? (result.counted ?? null) : result.output.rowCount;
        await this.core.emit(run.id, stepRun.id, `step_${outcome}`, {
          step_id: step.id,
          dataset_id: result.output.id,
          records,
          ...(result.output.recipe ? { deferred: true } : {}),
          failed: result.failed,
          ...(result.summary ? { summary: result.summary } : {}),
        });
      }
      // The step's work is paid; with nothing left, the steps after it wait for credits.
      if (finished && outcome === 'succeeded' && (await deps.credits.exhausted(run.user_id))) await this.pauseForCredits(run.id);
    } catch (err) {
      if (controller.signal.aborted) {
        // Paused or cancelled (the state says which; it was set by whoever stopped us), or shutting down.
        outcome = controller.signal.reason === 'paused' ? 'paused' : 'cancelled';
        log('server.runLog.stopped', { reason: stopReason(controller.signal.reason) });
        if (controller.signal.reason === 'shutdown') await repo.setStepRunState(stepRun.id, 'queued', ['running']);
      } else {
        error = storedError(err);
        const reason = failureReason(err);
        // The step's error as people read it (a DomainError's message is only its key).
        log('server.runLog.failed', { reason: { key: error.key as `server.${string}`, values: error.values } });
        if (!(err instanceof DomainError || err instanceof ValidationFailed)) deps.log.error({ err, stepRunId: stepRun.id }, 'step run failed unexpectedly');
        if (await repo.setStepRunState(stepRun.id, 'failed', ['running'], { error: JSON.stringify(error), ended_at: now(), state_reason: reason })) {
          await this.core.emit(run.id, stepRun.id, 'step_failed', { step_id: step.id, error, reason });
        }
      }
    } finally {
      stopWatching.abort();
      await watching;
      this.core.running.delete(stepRun.id);
      endExecution();
      await files.dispose();
      const cpu = process.cpuUsage(cpuBefore);
      await repo.endComputeJob(computeJobId, {
        state: outcome,
        cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
        peak_rss_bytes: Math.max(peakRss, process.memoryUsage.rss()),
        log_lines: JSON.stringify(logLines),
        log_dropped: logDropped,
        error: error ? JSON.stringify(error) : null,
      });
    }
  }

  /** Looks at the step's state on each of its run's events (or each STATE_POLL_MS) until `stop`. */
  private async watch(stepRunId: string, runId: string, controller: AbortController, stop: AbortSignal): Promise<void> {
    while (!stop.aborted && !controller.signal.aborted) {
      await this.core.deps.events.wait(runId, STATE_POLL_MS, stop);
      if (!stop.aborted) await this.watchState(stepRunId, runId, controller);
    }
  }

  /** Stops the step when someone paused or cancelled it (or its run) from any process. */
  private async watchState(stepRunId: string, runId: string, controller: AbortController): Promise<void> {
    if (controller.signal.aborted) return;
    try {
      const [stepRun, run] = await Promise.all([this.core.runs.findStepRun(stepRunId), this.core.runs.findRun(runId)]);
      if (!stepRun || stepRun.state !== 'running') controller.abort(stepRun?.state ?? 'deleted');
      else if (!run || run.state !== 'running') controller.abort(run?.state ?? 'deleted');
    } catch (err) {
      this.core.deps.log.warn({ err, stepRunId }, "could not read a running step run's state");
    }
  }
}

/** Why a step stopped (the abort's reason: a state, 'shutdown' or 'deleted'), for its log. */
function stopReason(reason: unknown): LogValue {
  switch (reason) {
    case 'paused':
      return { key: 'server.runLog.stopReason.paused' };
    case 'cancelled':
      return { key: 'server.runLog.stopReason.cancelled' };
    case 'shutdown':
      return { key: 'server.runLog.stopReason.shutdown' };
    case 'deleted':
      return { key: 'server.runLog.stopReason.deleted' };
    default:
      return String(reason);
  }
}

function storedError(err: unknown): StoredError {
  if (err instanceof DomainError) return { key: err.messageKey, values: err.values as Record<string, string | number> };
  if (err instanceof ValidationFailed) {
    const first = err.problems[0];
    return {
      key: first?.key ?? 'server.runs.stepFailed',
      values: { ...(first?.values as Record<string, string | number>), ...(first ? { at: first.loc.join('.') } : {}) },
    };
  }
  const message = (err as { message?: unknown })?.message;
  return { key: 'server.runs.unexpected', values: { reason: typeof message === 'string' ? message.slice(0, 500) : 'unknown' } };
}
