import type { StepRunRow } from '../../modules/runs/runs.repository';
import type { ParamValues } from '../params';
import { now, type EngineCore } from './engine-core';
import { isDone, isFinal, type RunState } from './run-states';

export const STEP_RUN_JOB = 'step-run';

export interface StepRunJob {
  stepRunId: string;
}

/** What a run executes, frozen when it starts: edits made meanwhile do not change a running run. */
export interface RunSnapshot {
  steps: { id: string; step_type: string; name: string; param_inputs: ParamValues; inputs: string[] }[];
  /** Variables by name; secrets are `null` here and opened from the workflow when a step runs. */
  variables: { name: string; type: string; value: unknown }[];
  /** Steps outside the run whose last output it reads, by step id: dataset id. */
  external: Record<string, string>;
}

/**
 * Schedules a run's DAG: which step runs are skipped, which are ready (queued as jobs), and when
 * the run ends. The database is the source of truth (migration 007); a job only says "look at step
 * run X", so any process may take it, take it twice, or take it after a crash.
 */
export class Scheduler {
  constructor(private readonly core: EngineCore) {}

  /**
   * Moves a run forward: step runs after a failed, cancelled or skipped one are skipped; step runs
   * whose inputs are all done are enqueued; a run whose step runs are all final ends. Safe to call
   * any number of times from any process (enqueueing is idempotent by job id).
   */
  async advance(runId: string): Promise<void> {
    const repo = this.core.runs;
    const run = await repo.findRun(runId);
    if (!run || run.state !== 'running') return;
    const snapshot = JSON.parse(run.snapshot) as RunSnapshot;
    const inputsOf = new Map(snapshot.steps.map((s) => [s.id, s.inputs]));
    let stepRuns = await repo.stepRunsOf(runId);
    for (let changed = true; changed;) {
      changed = false;
      const byStep = new Map(stepRuns.map((s) => [s.step_id, s]));
      for (const s of stepRuns) {
        if (s.state !== 'queued') continue;
        const blocked = (inputsOf.get(s.step_id) ?? []).some((i) => {
          const up = byStep.get(i);
          return up && isFinal(up.state) && !isDone(up.state);
        });
        if (blocked && (await repo.setStepRunState(s.id, 'skipped', ['queued'], { ended_at: now() }))) {
          await this.core.emit(runId, s.id, 'step_skipped', { step_id: s.step_id });
          changed = true;
        }
      }
      if (changed) stepRuns = await repo.stepRunsOf(runId);
    }
    const byStep = new Map(stepRuns.map((s) => [s.step_id, s]));
    for (const s of stepRuns) {
      if (s.state !== 'queued' && s.state !== 'running') continue;
      const ready = (inputsOf.get(s.step_id) ?? []).every((i) => !byStep.has(i) || isDone(byStep.get(i)!.state));
      if (ready) await this.enqueue(s);
    }
    if (stepRuns.every((s) => isFinal(s.state))) {
      const failed = stepRuns.find((s) => s.state === 'failed');
      const cancelled = stepRuns.find((s) => s.state === 'cancelled');
      const end: RunState = failed ? 'failed' : cancelled ? 'cancelled' : 'succeeded';
      // The run ended for the reason its failed (or cancelled) step run did.
      const reason = failed ? (failed.state_reason ?? 'error') : cancelled ? (cancelled.state_reason ?? 'by_user') : null;
      if (await repo.setRunState(runId, end, ['running'], { ended_at: now(), error: failed?.error ?? null, state_reason: reason }))
        await this.core.emit(runId, null, `run_${end}`, {});
    }
  }

  /**
   * After a restart: the in-memory queue lost its jobs, and Redis may have lost some. Every step run
   * of a running run that is queued or running is enqueued again (a job still held by a live worker
   * keeps its id, so it is not doubled).
   */
  async recover(): Promise<number> {
    const open = await this.core.runs.unfinishedStepRuns();
    const runs = new Set(open.map((s) => s.run_id));
    for (const runId of runs) await this.advance(runId);
    return open.length;
  }

  /** False when nothing consumes step runs (API processes with IN_PROCESS_WORKER=false and no `npm run worker`); null: unknown. */
  async hasWorkers(): Promise<boolean | null> {
    const count = await this.core.deps.jobs.workerCount(STEP_RUN_JOB);
    return count === null ? null : count > 0;
  }

  private async enqueue(stepRun: Pick<StepRunRow, 'id' | 'attempt'>): Promise<void> {
    // One job per attempt: a retry or resume is new work, a second enqueue of the same attempt is not.
    await this.core.deps.jobs.enqueue<StepRunJob>(STEP_RUN_JOB, { stepRunId: stepRun.id }, { jobId: `sr.${stepRun.id}.${stepRun.attempt}` });
  }
}

/** Steps reading from `stepId`, directly or not, within a run. */
export function downstreamOf(snapshot: RunSnapshot, stepId: string): Set<string> {
  const found = new Set<string>();
  const stack = [stepId];
  while (stack.length) {
    const id = stack.pop()!;
    for (const s of snapshot.steps) {
      if (s.inputs.includes(id) && !found.has(s.id)) {
        found.add(s.id);
        stack.push(s.id);
      }
    }
  }
  return found;
}
