import { DomainError, notFound } from '../../lib/errors';
import type { StepRunRow } from '../../modules/runs/runs.repository';
import { now, type EngineCore } from './engine-core';
import type { RunEstimates } from './estimates';
import { FINAL_STATES, isDone, isFinal, OPEN_STATES, type RunAction, type RunState, type StepRunAction } from './run-states';
import { downstreamOf, type RunSnapshot, type Scheduler } from './scheduler';

/**
 * Pause, resume, cancel and retry, of a whole run or one step run, by its owner or (for lack of
 * credits) by the engine. A state change is a guarded update (only from the states it may come
 * from), so two processes acting at once cannot both win; step runs executing here stop at once,
 * elsewhere at their next look at their state.
 */
export class RunControl {
  constructor(
    private readonly core: EngineCore,
    private readonly scheduler: Scheduler,
    private readonly estimates: RunEstimates,
  ) {}

  async controlRun(userId: string, runId: string, action: RunAction): Promise<void> {
    const repo = this.core.runs;
    const run = await repo.findOwnedRun(userId, runId);
    if (!run) throw notFound('server.runs.notFound');
    switch (action) {
      case 'pause': {
        if (!(await repo.setRunState(runId, 'paused', ['queued', 'running'], { pause_reason: null, state_reason: 'by_user' }))) throw cannot(action, run.state);
        this.core.abortRun(runId, 'paused');
        this.core.abort(await repo.moveStepRuns(runId, 'paused', ['running'], { state_reason: 'by_user' }), 'paused');
        await this.core.emit(runId, null, 'run_paused', { reason: 'by_user' });
        return;
      }
      case 'resume': {
        if (run.state === 'paused' && run.pause_reason === 'credits') await this.estimates.requireCredits(userId);
        if (!(await repo.setRunState(runId, 'running', ['paused'], { pause_reason: null }))) throw cannot(action, run.state);
        for (const id of await repo.moveStepRuns(runId, 'queued', ['paused'])) await repo.bumpAttempt(id);
        await this.core.emit(runId, null, 'run_resumed', {});
        await this.scheduler.advance(runId);
        return;
      }
      case 'cancel': {
        if (!(await repo.setRunState(runId, 'cancelled', ['queued', 'running', 'paused'], { ended_at: now(), state_reason: 'by_user' })))
          throw cannot(action, run.state);
        this.core.abortRun(runId, 'cancelled');
        this.core.abort(await repo.moveStepRuns(runId, 'cancelled', OPEN_STATES, { ended_at: now(), state_reason: 'by_user' }), 'cancelled');
        await this.core.emit(runId, null, 'run_cancelled', { reason: 'by_user' });
        return;
      }
      case 'retry':
      case 'retry_from_scratch': {
        const stepRuns = await repo.stepRunsOf(runId);
        const again = stepRuns.filter((s) => s.state === 'failed' || s.state === 'cancelled' || s.state === 'skipped');
        if (!again.length || !isFinal(run.state)) throw cannot(action, run.state);
        // A step run stopped midway kept its input (the steps before it are done and unchanged), so
        // its finished batches still hold: a retry goes on from them. Skipped ones never started.
        for (const s of again) await this.requeue(s, action === 'retry');
        await repo.setRunState(runId, 'running', FINAL_STATES, { ended_at: null, error: null });
        await this.core.emit(runId, null, 'run_retried', { step_runs: again.length, from_scratch: action === 'retry_from_scratch' });
        await this.scheduler.advance(runId);
        return;
      }
    }
  }

  async controlStepRun(userId: string, stepRunId: string, action: StepRunAction): Promise<void> {
    const repo = this.core.runs;
    const stepRun = await repo.findOwnedStepRun(userId, stepRunId);
    if (!stepRun) throw notFound('server.runs.stepRunNotFound');
    const runId = stepRun.run_id;
    switch (action) {
      case 'pause': {
        if (!(await repo.setStepRunState(stepRunId, 'paused', ['queued', 'running'], { state_reason: 'by_user' }))) throw cannot(action, stepRun.state);
        this.core.abort([stepRunId], 'paused');
        await this.core.emit(runId, stepRunId, 'step_paused', {});
        return;
      }
      case 'resume': {
        const run = await repo.findRun(runId);
        if (run?.state === 'paused' && run.pause_reason === 'credits') await this.estimates.requireCredits(userId);
        if (!(await repo.setStepRunState(stepRunId, 'queued', ['paused']))) throw cannot(action, stepRun.state);
        await repo.bumpAttempt(stepRunId);
        await repo.setRunState(runId, 'running', ['paused'], { pause_reason: null });
        await this.core.emit(runId, stepRunId, 'step_resumed', {});
        await this.scheduler.advance(runId);
        return;
      }
      case 'cancel': {
        if (!(await repo.setStepRunState(stepRunId, 'cancelled', OPEN_STATES, { ended_at: now(), state_reason: 'by_user' })))
          throw cannot(action, stepRun.state);
        this.core.abort([stepRunId], 'cancelled');
        await this.core.emit(runId, stepRunId, 'step_cancelled', {});
        await this.scheduler.advance(runId);
        return;
      }
      case 'retry':
      case 'retry_from_scratch':
      case 'retry_failed_records': {
        const allowed =
          action === 'retry_failed_records' ? isDone(stepRun.state) && Number(stepRun.records_failed) > 0 : ['failed', 'cancelled'].includes(stepRun.state);
        if (!allowed) throw cannot(action, stepRun.state);
        if (action === 'retry_failed_records') await repo.reopenFailedBatches(stepRunId);
        // Its input is unchanged: a retry goes on from its finished batches (and "retry failed
        // records" redoes only the failed records of them); from scratch forgets them.
        await this.requeue(stepRun, action !== 'retry_from_scratch');
        // What read this step's output must run again: its output changes.
        const run = (await repo.findRun(runId))!;
        const snapshot = JSON.parse(run.snapshot) as RunSnapshot;
        const stepRuns = await repo.stepRunsOf(runId);
        const after = downstreamOf(snapshot, stepRun.step_id);
        for (const s of stepRuns) if (after.has(s.step_id) && s.state !== 'queued' && s.state !== 'running') await this.requeue(s);
        await repo.setRunState(runId, 'running', [...FINAL_STATES, 'paused'], { ended_at: null, error: null });
        const event = action === 'retry_failed_records' ? 'step_retried_failed_records' : 'step_retried';
        await this.core.emit(runId, stepRunId, event, { from_scratch: action === 'retry_from_scratch' });
        await this.scheduler.advance(runId);
        return;
      }
    }
  }

  /**
   * The balance ran out: the run pauses where it is (a batch boundary; a step's finished batches
   * stay done) and says why, so it can resume by itself once credits arrive (resumeForCredits).
   */
  async pauseForCredits(runId: string): Promise<void> {
    const repo = this.core.runs;
    if (!(await repo.setRunState(runId, 'paused', ['queued', 'running'], { pause_reason: 'credits', state_reason: 'credits' }))) return;
    this.core.abortRun(runId, 'paused');
    this.core.abort(await repo.moveStepRuns(runId, 'paused', ['running'], { state_reason: 'credits' }), 'paused');
    await this.core.emit(runId, null, 'run_paused', { reason: 'credits' });
  }

  /** Resumes the user's runs paused for lack of credits, once the balance is above 0 (app.credits.onCredited). */
  async resumeForCredits(userId: string): Promise<number> {
    const { credits } = this.core.deps;
    if (!credits.enabled || (await credits.balanceMicro(userId)) <= 0) return 0;
    let resumed = 0;
    for (const run of await this.core.runs.runsPausedForCredits(userId)) {
      try {
        await this.controlRun(userId, run.id, 'resume');
        resumed++;
      } catch (err) {
        // Resumed meanwhile by its owner, or cancelled: nothing to do.
        if (!(err instanceof DomainError)) throw err;
      }
    }
    return resumed;
  }

  /**
   * Back to queued for another attempt (a new attempt writes a new output dataset). `keepBatches`:
   * a per-record step goes on from its finished batches; else it starts from its first record.
   */
  private async requeue(stepRun: StepRunRow, keepBatches = false): Promise<void> {
    const repo = this.core.runs;
    // A stopped attempt still executing here ends first: a batch it was storing, stored after
    // "from scratch" cleared them, would stand in for its records in the new attempt. (Another
    // process's attempt stops at its next check of the run's state.)
    await this.core.stopped([stepRun.id], STOPPED_WAIT_MS);
    await repo.setStepRunState(stepRun.id, 'queued', [stepRun.state as RunState], { error: null, ended_at: null, started_at: null, output_dataset_id: null });
    await repo.bumpAttempt(stepRun.id);
    if (!keepBatches) await repo.deleteBatches(stepRun.id);
  }
}

/** How long a retry waits for the stopped attempt executing in this process to end. */
const STOPPED_WAIT_MS = 10_000;

const cannot = (action: string, state: string) => new DomainError('conflict', 'server.runs.cannotControl', { action, state });
