import { createHash, randomUUID } from 'node:crypto';
import { UserModels } from '../users/user-models';
import os from 'node:os';
import { chatModelFor, embeddingModelFor, NoModelConfigured, type ModelSettings } from '../../ai';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { DatasetAlreadyStored, datasetKey, type DatasetMetadata, type Datasets } from '../../engine/datasets';
import type { OutboundHttpClient } from '../../engine/outbound-http';
import { validateParams, type ParamValues } from '../../engine/params';
import { getRunner, runSqlStep, StepRunFailed, type RunContext, type StepRunner, type Vars } from '../../engine/runners';
import { getStepType } from '../../engine/step-types';
import { isUniqueViolation } from '../../lib/db-errors';
import { DomainError, invalid, notFound, rejected, ValidationFailed, type ModalNotice } from '../../lib/errors';
import type { Log } from '../../lib/logger';
import type { SecretBox } from '../../lib/secret-box';
import type { Job, JobQueue } from '../../jobs/queue';
import type { Storage } from '../../storage';
import { DatasetsService } from '../datasets/datasets.service';
import { UsageEventsRepository } from '../files/files.repository';
import { toCredits } from '../usage/ledger';
import { UsageCharges, type ChargedStep, type ReportedUsage } from '../usage/usage-charges';
import { findCycle } from '../workflows/workflow-state';
import { WorkflowsRepository } from '../workflows/workflows.repository';
import { AiAnswerCache } from './ai-answer-cache';
import { PerRecordBatches, partsPrefix } from './per-record-batches';
import { planRun } from './run-plan';
import type { RunEventBus } from './run-events';
import { FINAL_STATES, isDone, isFinal, OPEN_STATES, type RunAction, type RunMode, type RunState, type StepRunAction } from './run-states';
import { RunsRepository, type StepRunRow, type WorkflowRunRow } from './runs.repository';
import { StepUserFiles } from './user-files';

export const STEP_RUN_JOB = 'step-run';

export interface StepRunJob {
  stepRunId: string;
}

export interface RunEngineDeps {
  db: Db;
  storage: Storage;
  config: Config;
  log: Log;
  datasets: Datasets;
  jobs: JobQueue;
  secrets: SecretBox;
  http: OutboundHttpClient;
  events: RunEventBus;
}

/** What a run executes, frozen when it starts: edits made meanwhile do not change a running run. */
export interface RunSnapshot {
  steps: { id: string; step_type: string; name: string; param_inputs: ParamValues; inputs: string[] }[];
  /** Variables by name; secrets are `null` here and opened from the workflow when a step runs. */
  variables: { name: string; type: string; value: unknown }[];
  /** Steps outside the run whose last output it reads, by step id: dataset id. */
  external: Record<string, string>;
}

/** Datasets written by a sample run (a quick preview) are deleted after this long. */
const SAMPLE_DATASET_TTL_MS = 24 * 3600_000;
/** How often a running step looks at its own state (a pause or cancel from another process). */
const STATE_POLL_MS = 1000;
/** A progress update is written at most this often per step run. */
const PROGRESS_EVERY_MS = 500;
/** Log lines kept per compute job. */
const LOG_LINES = 200;
/** A sample run reads at most this many records per source. */
export const MAX_SAMPLE_SIZE = 10_000;
/** Steps whose output depends only on their params, variables and inputs: an equal earlier step run is reused. */
const CACHEABLE_SOURCES = new Set(['import_csv', 'import_file', 'import_dataset', 'table_input', 'code']);

const now = () => new Date().toISOString();

/** A UUID made from text: a step run's output dataset id is the same on every try of one attempt. */
function uuidFrom(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** The AI steps' models (`RunContext.ai`): none configured, each use throws NoModelConfigured. */
function aiAccess(settings: ModelSettings, timeoutMs: number, cache: AiAnswerCache): RunContext['ai'] {
  return {
    chat(model) {
      const chat = chatModelFor(model ? { ...settings, model } : settings);
      if (!chat || !settings.model) throw new NoModelConfigured();
      return chat;
    },
    embedding(model) {
      if (!settings.model) throw new NoModelConfigured();
      const chat = chatModelFor(settings)!;
      // The chat model's id names the provider and host; the embedding model replaces its name.
      return { model: embeddingModelFor(settings, model), id: `${chat.id.split(':')[0]}:${model}@${chat.id.split('@').pop()}` };
    },
    timeoutMs,
    cache,
  };
}

/** A failure as stored in `error`: the catalog key and values, so each reader gets their language. */
export interface StoredError {
  key: string;
  values: Record<string, string | number>;
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

/**
 * The run engine: starts runs, executes step runs as queued jobs, and takes pause, resume, cancel
 * and retry. The database is the source of truth (migration 007); a job only says "look at step
 * run X", so any process may take it, take it twice, or take it after a crash:
 *
 *   execute ─► workflow run + step runs (queued) ─► enqueue the ready ones
 *   job ─► claim (queued|running → running) ─► cached? ─► run by kind ─► dataset registered ─► succeeded
 *        └─► advance(): skip what follows a failure, enqueue what became ready, end the run when all are final
 */
export class RunEngine {
  readonly repo: RunsRepository;
  private readonly workflows: WorkflowsRepository;
  private readonly datasetRows: DatasetsService;
  private readonly batches: PerRecordBatches;
  private readonly usage: UsageEventsRepository;
  /** Prices the steps' work into the credit ledger (modules/usage). */
  readonly charges: UsageCharges;
  private readonly models: UserModels;
  /** Step runs executing in this process, so a pause or cancel here stops them at once. */
  private readonly running = new Map<string, AbortController>();
  private readonly worker = `${os.hostname()}:${process.pid}`;

  constructor(private readonly deps: RunEngineDeps) {
    this.repo = new RunsRepository(deps.db);
    this.workflows = new WorkflowsRepository(deps.db);
    this.datasetRows = new DatasetsService(deps.db, deps.datasets);
    this.batches = new PerRecordBatches(this.repo, deps.storage, deps.datasets);
    this.usage = new UsageEventsRepository(deps.db);
    this.charges = new UsageCharges(deps.db, deps.config.billing);
    this.models = new UserModels(deps.db, deps.secrets, deps.config);
  }

  /** Consumes step-run jobs in this process (the API's in-process worker, or `npm run worker`). */
  register(): void {
    this.deps.jobs.process<StepRunJob>(STEP_RUN_JOB, (job) => this.handle(job));
  }

  /** False when nothing consumes step runs (API processes with IN_PROCESS_WORKER=false and no `npm run worker`); null: unknown. */
  async hasWorkers(): Promise<boolean | null> {
    const count = await this.deps.jobs.workerCount(STEP_RUN_JOB);
    return count === null ? null : count > 0;
  }

  // ---- starting a run ----

  async start(userId: string, workflowId: string, stepId: string, options: { mode: RunMode; sampleSize: number | null }): Promise<string> {
    const workflow = await this.workflows.findOwned(workflowId, userId);
    if (!workflow) throw notFound('server.workflows.notFound');
    const state = await this.workflows.loadSnapshot(workflow);
    if (!state.steps.some((s) => s.id === stepId)) throw notFound('server.steps.notFound');
    if (findCycle(state.steps)) throw rejected('server.runs.cycle');

    const plan = planRun(state.steps, stepId, options.mode);
    const byId = new Map(state.steps.map((s) => [s.id, s]));
    for (const id of plan.steps) {
      const step = byId.get(id)!;
      const type = getStepType(step.step_type);
      if (!type) throw invalid('server.runs.unknownStepType', ['path', 'stepId'], { step: step.name });
      const issues = validateParams(type, step.param_inputs, 'replace');
      if (issues.length) throw invalid('server.runs.stepNeedsSettings', ['path', 'stepId'], { step: step.name, param: issues[0].param });
      if (step.inputs.length < type.inputs.min) throw invalid('server.runs.stepNeedsInputs', ['path', 'stepId'], { step: step.name });
    }
    const external: Record<string, string> = {};
    for (const id of plan.external) {
      const last = await this.repo.latestOutputOf(workflowId, id);
      if (!last?.datasetId) throw rejected('server.runs.inputNotRun', { step: byId.get(id)?.name ?? id });
      external[id] = last.datasetId;
    }
    if (this.charges.enabled) await this.requireCreditsFor(userId, await this.estimatePlan(userId, workflowId, state.steps, plan, options.sampleSize));

    const snapshot: RunSnapshot = {
      steps: plan.steps.map((id) => {
        const s = byId.get(id)!;
        return { id: s.id, step_type: s.step_type, name: s.name, param_inputs: s.param_inputs, inputs: s.inputs };
      }),
      variables: state.variables.map((v) => ({ name: v.name, type: v.type, value: v.type === 'secret' || v.value === null ? null : JSON.parse(v.value) })),
      external,
    };
    const runId = randomUUID();
    await this.repo.insertRun(
      {
        id: runId,
        workflow_id: workflowId,
        user_id: userId,
        workflow_version: workflow.version,
        snapshot: JSON.stringify(snapshot),
        mode: options.mode,
        target_step_id: stepId,
        sample_size: options.sampleSize,
        state: 'running',
      },
      snapshot.steps.map((s) => ({
        id: randomUUID(),
        run_id: runId,
        step_id: s.id,
        step_type: s.step_type,
        type_version: 1,
        params_hash: sha256(s.param_inputs),
        cache_key: '',
        state: 'queued',
        input_dataset_ids: '[]',
        output_dataset_id: null,
        records_total: null,
        records_done: 0,
        records_failed: 0,
        error: null,
        attempt: 0,
      })),
    );
    await this.event(runId, null, 'run_started', { mode: options.mode, target_step_id: stepId, sample_size: options.sampleSize, steps: plan.steps.length });
    await this.advance(runId);
    return runId;
  }

  // ---- cost ----

  /** What a run would cost (same arguments as `start`): the editor's estimate, and the check before a run. */
  async estimate(userId: string, workflowId: string, stepId: string | null, options: { mode: RunMode; sampleSize: number | null }): Promise<RunEstimate> {
    const workflow = await this.workflows.findOwned(workflowId, userId);
    if (!workflow) throw notFound('server.workflows.notFound');
    const state = await this.workflows.loadSnapshot(workflow);
    if (stepId !== null && !state.steps.some((s) => s.id === stepId)) throw notFound('server.steps.notFound');
    if (findCycle(state.steps)) throw rejected('server.runs.cycle');
    // Without a step: the whole workflow.
    const target = stepId ?? state.steps[0]?.id;
    if (!target) return { creditsMicro: 0, lines: [] };
    return this.estimatePlan(userId, workflowId, state.steps, planRun(state.steps, target, stepId === null ? 'all' : options.mode), options.sampleSize);
  }

  /**
   * Per-record steps: the records they will read × their price; other steps: their price once. A
   * step's record count is what is known before running: its input's newest output (an earlier run,
   * or a step outside the run), else what flows from its own input (per-record steps keep their
   * records), else a typed-in table's rows or a chosen dataset's count; unknown counts add nothing (records
   * null), and AI tokens are not estimated. A sample run reads at most its sample size.
   */
  private async estimatePlan(
    userId: string,
    workflowId: string,
    steps: readonly { id: string; step_type: string; name: string; inputs: string[]; param_inputs: ParamValues }[],
    plan: { steps: string[] },
    sampleSize: number | null,
  ): Promise<RunEstimate> {
    const latest = await this.repo.latestOutputsOf(workflowId, userId);
    const byId = new Map(steps.map((s) => [s.id, s]));
    const inPlan = new Set(plan.steps);
    const produced = new Map<string, number | null>();
    const cap = (n: number | null) => (n === null || sampleSize === null ? n : Math.min(n, sampleSize));
    const countOf = (id: string | undefined): number | null => {
      if (!id) return null;
      if (inPlan.has(id) && produced.has(id)) return produced.get(id)!;
      return latest.get(id)?.rowCount ?? null;
    };
    const lines: RunEstimate['lines'] = [];
    let total = 0;
    for (const id of plan.steps) {
      const step = byId.get(id)!;
      const price = this.charges.prices.step(step.step_type);
      const unitMicro = this.charges.prices.unitMicro(step.step_type);
      const input = cap(countOf(step.inputs[0]));
      let out = latest.get(id)?.rowCount ?? null;
      if (out === null && getRunner(step.step_type)?.kind === 'per-record') out = input;
      if (out === null && step.step_type === 'table_input' && Array.isArray(step.param_inputs.rows)) out = step.param_inputs.rows.length;
      if (out === null && step.step_type === 'import_dataset' && typeof step.param_inputs.dataset === 'string') {
        out = (await this.datasetRows.findOwned(userId, step.param_inputs.dataset).catch(() => undefined))?.rowCount ?? null;
      }
      produced.set(id, cap(out));
      const records = price.per === 'record' ? input : null;
      const micro = price.per === 'record' ? (records ?? 0) * unitMicro : unitMicro;
      total += micro;
      lines.push({ stepId: id, stepName: step.name, stepType: step.step_type, per: price.per, records, creditsMicro: micro, unitMicro });
    }
    return { creditsMicro: total, lines };
  }

  /** Before a run: 402 with the "insufficient credits" modal when the balance is below its estimate (or spent and the run has a priced step). */
  private async requireCreditsFor(userId: string, estimate: RunEstimate): Promise<void> {
    if (!this.charges.enabled) return;
    const balance = await this.charges.ledger.balanceMicro(userId);
    const priced = estimate.lines.some((l) => l.unitMicro > 0);
    if (balance >= estimate.creditsMicro && !(balance <= 0 && priced)) return;
    const values = { needed: roundCredits(estimate.creditsMicro), balance: roundCredits(balance) };
    throw new DomainError('payment_required', 'server.usage.insufficientCredits', values, insufficientCreditsModal('server.usage.insufficientCreditsHelp'));
  }

  // ---- control ----

  async controlRun(userId: string, runId: string, action: RunAction): Promise<void> {
    const run = await this.repo.findOwnedRun(userId, runId);
    if (!run) throw notFound('server.runs.notFound');
    switch (action) {
      case 'pause': {
        if (!(await this.repo.setRunState(runId, 'paused', ['queued', 'running'], { pause_reason: null }))) throw this.cannot(action, run.state);
        const paused = await this.repo.moveStepRuns(runId, 'paused', ['running']);
        paused.forEach((id) => this.running.get(id)?.abort('paused'));
        await this.event(runId, null, 'run_paused', {});
        return;
      }
      case 'resume': {
        if (run.state === 'paused' && run.pause_reason === 'credits') await this.requireCredits(userId);
        if (!(await this.repo.setRunState(runId, 'running', ['paused'], { pause_reason: null }))) throw this.cannot(action, run.state);
        for (const id of await this.repo.moveStepRuns(runId, 'queued', ['paused'])) await this.repo.bumpAttempt(id);
        await this.event(runId, null, 'run_resumed', {});
        await this.advance(runId);
        return;
      }
      case 'cancel': {
        if (!(await this.repo.setRunState(runId, 'cancelled', ['queued', 'running', 'paused'], { ended_at: now() }))) throw this.cannot(action, run.state);
        const cancelled = await this.repo.moveStepRuns(runId, 'cancelled', OPEN_STATES, { ended_at: now() });
        cancelled.forEach((id) => this.running.get(id)?.abort('cancelled'));
        await this.event(runId, null, 'run_cancelled', {});
        return;
      }
      case 'retry': {
        const stepRuns = await this.repo.stepRunsOf(runId);
        const again = stepRuns.filter((s) => s.state === 'failed' || s.state === 'cancelled' || s.state === 'skipped');
        if (!again.length || !isFinal(run.state)) throw this.cannot(action, run.state);
        for (const s of again) await this.requeue(s);
        await this.repo.setRunState(runId, 'running', FINAL_STATES, { ended_at: null, error: null });
        await this.event(runId, null, 'run_retried', { step_runs: again.length });
        await this.advance(runId);
        return;
      }
    }
  }

  async controlStepRun(userId: string, stepRunId: string, action: StepRunAction): Promise<void> {
    const stepRun = await this.repo.findOwnedStepRun(userId, stepRunId);
    if (!stepRun) throw notFound('server.runs.stepRunNotFound');
    const runId = stepRun.run_id;
    switch (action) {
      case 'pause': {
        if (!(await this.repo.setStepRunState(stepRunId, 'paused', ['queued', 'running']))) throw this.cannot(action, stepRun.state);
        this.running.get(stepRunId)?.abort('paused');
        await this.event(runId, stepRunId, 'step_paused', {});
        return;
      }
      case 'resume': {
        const run = await this.repo.findRun(runId);
        if (run?.state === 'paused' && run.pause_reason === 'credits') await this.requireCredits(userId);
        if (!(await this.repo.setStepRunState(stepRunId, 'queued', ['paused']))) throw this.cannot(action, stepRun.state);
        await this.repo.bumpAttempt(stepRunId);
        await this.repo.setRunState(runId, 'running', ['paused'], { pause_reason: null });
        await this.event(runId, stepRunId, 'step_resumed', {});
        await this.advance(runId);
        return;
      }
      case 'cancel': {
        if (!(await this.repo.setStepRunState(stepRunId, 'cancelled', OPEN_STATES, { ended_at: now() }))) throw this.cannot(action, stepRun.state);
        this.running.get(stepRunId)?.abort('cancelled');
        await this.event(runId, stepRunId, 'step_cancelled', {});
        await this.advance(runId);
        return;
      }
      case 'retry':
      case 'retry_failed_records': {
        if (action === 'retry' ? !['failed', 'cancelled'].includes(stepRun.state) : !(isDone(stepRun.state) && Number(stepRun.records_failed) > 0))
          throw this.cannot(action, stepRun.state);
        if (action === 'retry_failed_records') await this.repo.reopenFailedBatches(stepRunId);
        await this.requeue(stepRun, action === 'retry_failed_records');
        // What read this step's output must run again: its output changes.
        const run = (await this.repo.findRun(runId))!;
        const snapshot = JSON.parse(run.snapshot) as RunSnapshot;
        const stepRuns = await this.repo.stepRunsOf(runId);
        const after = downstreamOf(snapshot, stepRun.step_id);
        for (const s of stepRuns) if (after.has(s.step_id) && s.state !== 'queued' && s.state !== 'running') await this.requeue(s);
        await this.repo.setRunState(runId, 'running', [...FINAL_STATES, 'paused'], { ended_at: null, error: null });
        await this.event(runId, stepRunId, action === 'retry' ? 'step_retried' : 'step_retried_failed_records', {});
        await this.advance(runId);
        return;
      }
    }
  }

  // ---- credits ----

  /**
   * The balance ran out: the run pauses where it is (a batch boundary; a step's finished batches
   * stay done) and says why, so it can resume by itself once credits arrive (resumeForCredits).
   */
  private async pauseForCredits(runId: string): Promise<void> {
    if (!(await this.repo.setRunState(runId, 'paused', ['queued', 'running'], { pause_reason: 'credits' }))) return;
    const paused = await this.repo.moveStepRuns(runId, 'paused', ['running']);
    paused.forEach((id) => this.running.get(id)?.abort('paused'));
    await this.event(runId, null, 'run_paused', { reason: 'credits' });
  }

  /** Resumes the user's runs paused for lack of credits, once the balance is above 0 (app.credits.onCredited). */
  async resumeForCredits(userId: string): Promise<number> {
    if (!this.charges.enabled || (await this.charges.ledger.balanceMicro(userId)) <= 0) return 0;
    let resumed = 0;
    for (const run of await this.repo.runsPausedForCredits(userId)) {
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

  /** 402 with the "insufficient credits" modal when billing is on and the balance is not above 0. */
  private async requireCredits(userId: string): Promise<void> {
    if (!this.charges.enabled) return;
    const balance = await this.charges.ledger.balanceMicro(userId);
    if (balance > 0) return;
    throw new DomainError(
      'payment_required',
      'server.usage.resumeNeedsCredits',
      { balance: roundCredits(balance) },
      insufficientCreditsModal('server.usage.resumeNeedsCreditsHelp'),
    );
  }

  private cannot(action: string, state: string) {
    return new DomainError('conflict', 'server.runs.cannotControl', { action, state });
  }

  /** Back to queued for another attempt (a new attempt writes a new output dataset). */
  private async requeue(stepRun: StepRunRow, keepBatches = false): Promise<void> {
    await this.repo.setStepRunState(stepRun.id, 'queued', [stepRun.state as RunState], {
      error: null,
      ended_at: null,
      started_at: null,
      output_dataset_id: null,
    });
    await this.repo.bumpAttempt(stepRun.id);
    if (!keepBatches) await this.deps.db.deleteFrom('step_run_batches').where('step_run_id', '=', stepRun.id).execute();
  }

  // ---- scheduling ----

  /**
   * Moves a run forward: step runs after a failed, cancelled or skipped one are skipped; step runs
   * whose inputs are all done are enqueued; a run whose step runs are all final ends. Safe to call
   * any number of times from any process (enqueueing is idempotent by job id).
   */
  async advance(runId: string): Promise<void> {
    const run = await this.repo.findRun(runId);
    if (!run || run.state !== 'running') return;
    const snapshot = JSON.parse(run.snapshot) as RunSnapshot;
    const inputsOf = new Map(snapshot.steps.map((s) => [s.id, s.inputs]));
    let stepRuns = await this.repo.stepRunsOf(runId);
    for (let changed = true; changed;) {
      changed = false;
      const byStep = new Map(stepRuns.map((s) => [s.step_id, s]));
      for (const s of stepRuns) {
        if (s.state !== 'queued') continue;
        const blocked = (inputsOf.get(s.step_id) ?? []).some((i) => {
          const up = byStep.get(i);
          return up && isFinal(up.state) && !isDone(up.state);
        });
        if (blocked && (await this.repo.setStepRunState(s.id, 'skipped', ['queued'], { ended_at: now() }))) {
          await this.event(runId, s.id, 'step_skipped', { step_id: s.step_id });
          changed = true;
        }
      }
      if (changed) stepRuns = await this.repo.stepRunsOf(runId);
    }
    const byStep = new Map(stepRuns.map((s) => [s.step_id, s]));
    for (const s of stepRuns) {
      if (s.state !== 'queued' && s.state !== 'running') continue;
      const ready = (inputsOf.get(s.step_id) ?? []).every((i) => !byStep.has(i) || isDone(byStep.get(i)!.state));
      if (ready) await this.enqueue(s);
    }
    if (stepRuns.every((s) => isFinal(s.state))) {
      const failed = stepRuns.find((s) => s.state === 'failed');
      const end: RunState = failed ? 'failed' : stepRuns.some((s) => s.state === 'cancelled') ? 'cancelled' : 'succeeded';
      if (await this.repo.setRunState(runId, end, ['running'], { ended_at: now(), error: failed?.error ?? null }))
        await this.event(runId, null, `run_${end}`, {});
    }
  }

  private async enqueue(stepRun: Pick<StepRunRow, 'id' | 'attempt'>): Promise<void> {
    // One job per attempt: a retry or resume is new work, a second enqueue of the same attempt is not.
    await this.deps.jobs.enqueue<StepRunJob>(STEP_RUN_JOB, { stepRunId: stepRun.id }, { jobId: `sr.${stepRun.id}.${stepRun.attempt}` });
  }

  /**
   * After a restart: the in-memory queue lost its jobs, and Redis may have lost some. Every step run
   * of a running run that is queued or running is enqueued again (a job still held by a live worker
   * keeps its id, so it is not doubled).
   */
  async recover(): Promise<number> {
    const open = await this.repo.unfinishedStepRuns();
    const runs = new Set(open.map((s) => s.run_id));
    for (const runId of runs) await this.advance(runId);
    return open.length;
  }

  // ---- executing one step run ----

  private async handle(job: Job<StepRunJob>): Promise<void> {
    const stepRunId = job.data.stepRunId;
    const stepRun = await this.repo.findStepRun(stepRunId);
    if (!stepRun || (stepRun.state !== 'queued' && stepRun.state !== 'running')) return;
    const run = await this.repo.findRun(stepRun.run_id);
    if (!run || run.state !== 'running') return;
    await this.execute(run, stepRun);
    await this.advance(run.id);
  }

  private async execute(run: WorkflowRunRow, stepRun: StepRunRow): Promise<void> {
    const snapshot = JSON.parse(run.snapshot) as RunSnapshot;
    const step = snapshot.steps.find((s) => s.id === stepRun.step_id);
    if (!step) return;
    const siblings = new Map((await this.repo.stepRunsOf(run.id)).map((s) => [s.step_id, s]));
    const inputIds: string[] = [];
    for (const up of step.inputs) {
      const upRun = siblings.get(up);
      if (!upRun) inputIds.push(snapshot.external[up]);
      else if (isDone(upRun.state) && upRun.output_dataset_id) inputIds.push(upRun.output_dataset_id);
      else return; // not ready: advance() enqueues it again when its inputs are done
    }
    const startedAt = stepRun.started_at ?? now();
    if (
      !(await this.repo.setStepRunState(stepRun.id, 'running', ['queued', 'running'], { started_at: startedAt, input_dataset_ids: JSON.stringify(inputIds) }))
    )
      return;
    await this.repo.abandonComputeJobs(stepRun.id);
    await this.event(run.id, stepRun.id, 'step_started', { step_id: step.id, attempt: stepRun.attempt });

    const controller = new AbortController();
    this.running.set(stepRun.id, controller);
    const watch = setInterval(() => void this.watchState(stepRun.id, run.id, controller), STATE_POLL_MS);
    watch.unref();
    const logLines: string[] = [];
    let logDropped = 0;
    const log = (line: string) => {
      logLines.push(`${now()} ${line}`.slice(0, 2000));
      if (logLines.length > LOG_LINES) {
        logLines.shift();
        logDropped++;
      }
    };
    const computeJobId = await this.repo.startComputeJob(stepRun.id, this.worker, stepRun.attempt + 1);
    const cpuBefore = process.cpuUsage();
    let peakRss = process.memoryUsage.rss();
    const files = new StepUserFiles(this.deps, run.user_id, stepRun.id);
    let outcome: 'succeeded' | 'failed' | 'cancelled' | 'paused' | 'cached' = 'failed';
    let error: StoredError | null = null;
    try {
      await files.prepare();
      const result = await this.runStep({
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
      const finished = await this.repo.setStepRunState(stepRun.id, outcome, ['running', 'paused'], {
        output_dataset_id: result.output.id,
        // A deferred output (not written yet, see engine/datasets/recipe.ts) has no count yet.
        records_total: result.output.recipe ? (result.counted ?? null) : result.output.rowCount,
        records_done: result.output.recipe ? (result.counted ?? 0) : (result.done ?? result.output.rowCount),
        records_failed: result.failed,
        ended_at: now(),
        error: null,
        cache_key: result.cacheKey,
      });
      if (finished)
        await this.event(run.id, stepRun.id, `step_${outcome}`, {
          step_id: step.id,
          dataset_id: result.output.id,
          records: result.output.recipe ? (result.counted ?? null) : result.output.rowCount,
          ...(result.output.recipe ? { deferred: true } : {}),
          failed: result.failed,
          ...(result.summary ? { summary: result.summary } : {}),
        });
      // The step's work is paid; with nothing left, the steps after it wait for credits.
      if (finished && outcome === 'succeeded' && (await this.charges.exhausted(run.user_id))) await this.pauseForCredits(run.id);
    } catch (err) {
      if (controller.signal.aborted) {
        // Paused or cancelled (the state says which; it was set by whoever stopped us), or shutting down.
        outcome = controller.signal.reason === 'paused' ? 'paused' : 'cancelled';
        log(`Stopped: ${String(controller.signal.reason)}`);
        if (controller.signal.reason === 'shutdown') await this.repo.setStepRunState(stepRun.id, 'queued', ['running']);
      } else {
        error = storedError(err);
        log(`Failed: ${(err as Error)?.message ?? String(err)}`);
        if (!(err instanceof DomainError || err instanceof ValidationFailed))
          this.deps.log.error({ err, stepRunId: stepRun.id }, 'step run failed unexpectedly');
        if (await this.repo.setStepRunState(stepRun.id, 'failed', ['running'], { error: JSON.stringify(error), ended_at: now() })) {
          await this.event(run.id, stepRun.id, 'step_failed', { step_id: step.id, error });
        }
      }
    } finally {
      clearInterval(watch);
      this.running.delete(stepRun.id);
      await files.dispose();
      const cpu = process.cpuUsage(cpuBefore);
      await this.repo.endComputeJob(computeJobId, {
        state: outcome,
        cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
        peak_rss_bytes: Math.max(peakRss, process.memoryUsage.rss()),
        log_lines: JSON.stringify(logLines),
        log_dropped: logDropped,
        error: error ? JSON.stringify(error) : null,
      });
    }
  }

  /** Stops the step when someone paused or cancelled it (or its run) from any process. */
  private async watchState(stepRunId: string, runId: string, controller: AbortController): Promise<void> {
    if (controller.signal.aborted) return;
    try {
      const [stepRun, run] = await Promise.all([this.repo.findStepRun(stepRunId), this.repo.findRun(runId)]);
      if (!stepRun || stepRun.state !== 'running') controller.abort(stepRun?.state ?? 'deleted');
      else if (!run || run.state !== 'running') controller.abort(run?.state ?? 'deleted');
    } catch (err) {
      this.deps.log.warn({ err, stepRunId }, "could not read a running step run's state");
    }
  }

  private async runStep(a: {
    run: WorkflowRunRow;
    stepRun: StepRunRow;
    step: RunSnapshot['steps'][number];
    snapshot: RunSnapshot;
    inputIds: string[];
    controller: AbortController;
    log: (line: string) => void;
    files: StepUserFiles;
    onProgress: () => void;
  }): Promise<{ output: DatasetMetadata; failed: number; done?: number; cached?: boolean; cacheKey: string; summary?: unknown; counted?: number }> {
    const { run, stepRun, step, snapshot, controller, log, files } = a;
    const runner = getRunner(step.step_type);
    if (!runner) throw new DomainError('rejected', 'server.runs.stepNotRunnable', { step: step.name });
    let inputs = await Promise.all(a.inputIds.map((id) => this.ownedDataset(run.user_id, id)));
    const vars = await this.variables(run, snapshot);
    const cacheKey = sha256({
      type: step.step_type,
      version: stepRun.type_version,
      params: step.param_inputs,
      vars,
      inputs: a.inputIds,
      sample: run.sample_size,
    });
    const params = step.param_inputs;

    if (runner.kind === 'sql' || CACHEABLE_SOURCES.has(step.step_type)) {
      const cached = await this.repo.cachedOutput(run.user_id, cacheKey);
      if (cached) {
        log(`Reused the output of an equal earlier step run (${cached.stepRunId})`);
        return { output: await this.ownedDataset(run.user_id, cached.datasetId), failed: 0, cached: true, cacheKey };
      }
    }

    const datasetId = uuidFrom(`${stepRun.id}:${stepRun.attempt}`);
    const name = `${step.name}`.slice(0, 200);
    let lastProgress = 0;
    const charged: ChargedStep = {
      userId: run.user_id,
      workflowId: run.workflow_id,
      stepId: step.id,
      stepType: step.step_type,
      stepName: step.name,
      runId: run.id,
      stepRunId: stepRun.id,
    };
    const recordUsage = (used: readonly ReportedUsage[]) =>
      this.usage.record(
        used.map(({ kind, quantity, key }) => ({
          userId: run.user_id,
          kind,
          quantity,
          refId: stepRun.id,
          idempotencyKey: `${stepRun.id}:${kind}:${key}`.slice(0, 500),
        })),
      );
    // What a step that is not run in batches reports, recorded at its end.
    const usage: ReportedUsage[] = [];
    const flushBatch = async (batch: { no: number; recordIds: ReadonlySet<string> }, used: ReportedUsage[]) => {
      await recordUsage(used);
      await this.charges.chargeBatch(charged, batch.no, batch.recordIds, used);
    };
    const afterBatch = async () => {
      if (await this.charges.exhausted(run.user_id)) await this.pauseForCredits(run.id);
    };
    const aiCache = new AiAnswerCache(this.deps.db, run.user_id);
    const ai = aiAccess(await this.modelSettingsFor(run.user_id), this.deps.config.llm.timeoutMs, aiCache);
    const ctx: RunContext = {
      ownerId: run.user_id,
      stepRunId: stepRun.id,
      signal: controller.signal,
      vars,
      sampleSize: run.sample_size,
      datasets: this.deps.datasets,
      dataset: async (id) => {
        const meta = await this.datasetRows.findOwned(run.user_id, id);
        if (!meta) throw new StepRunFailed(`The dataset ${id} no longer exists among your datasets; choose another in the step's settings`, null);
        return meta;
      },
      files,
      http: this.deps.http,
      ai,
      output: { datasetId, name },
      usage: (event) => usage.push(event),
      log,
      progress: ({ done, total }) => {
        a.onProgress();
        const at = Date.now();
        if (at - lastProgress < PROGRESS_EVERY_MS) return;
        lastProgress = at;
        void this.repo
          .setProgress(stepRun.id, { records_done: done, ...(total !== undefined ? { records_total: total } : {}) })
          .then(() => this.event(run.id, stepRun.id, 'step_progress', { done, total: total ?? null }))
          .catch((err) => this.deps.log.warn({ err }, 'could not record progress'));
      },
    };
    const expiresAt = run.sample_size ? new Date(Date.now() + SAMPLE_DATASET_TTL_MS).toISOString() : null;

    // A crash after the dataset was written but before the step run said so: use what is there.
    const existing = await this.datasetRows.findOwned(run.user_id, datasetId);
    if (existing) return { output: existing, failed: Number(stepRun.records_failed), cacheKey };

    // Steps that read their input record by record or need its count get a deferred input written
    // first (once: it stays stored); SQL steps and streaming sinks read it through its recipe.
    if (inputs.some((i) => i.recipe) && (runner.kind === 'per-record' || (runner.kind === 'sink' && !runner.streamsInput) || runner.kind === 'source')) {
      inputs = await Promise.all(inputs.map((i) => (i.recipe ? this.materialized(run.user_id, i) : i)));
    }
    log(`Running ${step.step_type} on ${inputs.map((i) => (i.recipe ? 'a deferred input' : `${i.rowCount} record(s)`)).join(' and ') || 'no input'}`);
    let output: DatasetMetadata;
    let failed = 0;
    let summary: unknown;
    // A streaming sink over a deferred input counts what it sent: the step's records, though its output stays deferred.
    let counted: number | undefined;
    const registered = (meta: DatasetMetadata) => this.registerDataset(meta, expiresAt);
    // What a snapshot written by this try is, should it have to be read back (writeOnce).
    const stored = { ownerId: run.user_id, datasetId, name, stepRunId: stepRun.id, parentIds: inputs.map((i) => i.id) };
    switch (runner.kind) {
      case 'sql':
        output = await registered(
          await this.writeOnce(stored, () =>
            runSqlStep(this.deps.datasets, { runner, inputs, params, vars, ownerId: run.user_id, name, stepRunId: stepRun.id, datasetId, defer: true }),
          ),
        );
        break;
      case 'source': {
        checkColumns(runner, inputs, params, vars);
        const recipe = runner.defer ? await runner.defer(ctx, params) : null;
        output = await registered(
          recipe
            ? {
                id: datasetId,
                ownerId: run.user_id,
                name,
                storageKey: datasetKey(run.user_id, datasetId),
                columns: recipe.columns,
                rowCount: 0,
                bytes: 0,
                stepRunId: stepRun.id,
                parentIds: [],
                createdAt: now(),
                recipe,
              }
            : await this.writeOnce(stored, () => runner.run(ctx, params)),
        );
        break;
      }
      case 'sink': {
        checkColumns(runner, inputs, params, vars);
        const result = await runner.run(ctx, inputs, params);
        summary = { ...(result.summary ?? {}), ...(result.files ? { files: result.files.map((f) => ({ id: f.id, name: f.name })) } : {}) };
        for (const f of result.files ?? []) log(`Saved ${f.name} (${f.size} bytes)`);
        output = inputs[0];
        if (typeof result.summary?.records === 'number') counted = result.summary.records;
        break;
      }
      case 'per-record': {
        checkColumns(runner, inputs, params, vars);
        // Like the other kinds, a crash between storing the combined dataset and registering it
        // leaves a snapshot that cannot be written again: the next try takes it as it is.
        output = await registered(
          await this.writeOnce(stored, async () => {
            const result = await this.batches.run({
              ctx,
              runner,
              input: inputs[0],
              params,
              stepRunId: stepRun.id,
              workDir: files.scratchDir,
              flushUsage: flushBatch,
              afterBatch,
            });
            return result.output;
          }),
        );
        failed = (await this.repo.batchesOf(stepRun.id)).reduce((sum, b) => sum + Number(b.records_failed), 0);
        // The parts are kept while some records failed: "retry failed records" redoes only those
        // and takes the other records' results from their parts.
        if (!failed)
          await this.deps.storage
            .deletePrefix(partsPrefix(run.user_id, stepRun.id))
            .catch((err) => this.deps.log.warn({ err }, 'could not delete batch parts'));
        break;
      }
    }
    await recordUsage(usage.splice(0));
    // Batches were charged as they finished; any other step is charged once, here.
    if (runner.kind !== 'per-record') await this.charges.chargeStep(charged, output.recipe ? (counted ?? null) : output.rowCount);
    if (step.step_type.startsWith('ai_')) {
      const pruned = await aiCache.prune().catch((err) => void this.deps.log.warn({ err }, 'could not prune the AI answer cache'));
      if (pruned) log(`Pruned ${pruned} old AI answer(s) from the cache`);
    }
    log(
      output.recipe
        ? 'Done: deferred (its records are computed when a later step or a person reads them)'
        : `Done: ${output.rowCount} record(s)${failed ? `, ${failed} failed` : ''}`,
    );
    return { output, failed, cacheKey, summary, counted, done: runner.kind === 'per-record' ? inputs[0].rowCount : output.rowCount };
  }

  /**
   * A retried write finds the snapshot already stored (a crash before it was registered): read it
   * back, with the name and lineage the first write gave it.
   */
  private async writeOnce(
    stored: { ownerId: string; datasetId: string; name: string; stepRunId: string; parentIds: string[] },
    write: () => Promise<DatasetMetadata>,
  ): Promise<DatasetMetadata> {
    try {
      return await write();
    } catch (err) {
      if (!(err instanceof DatasetAlreadyStored)) throw err;
      const { ownerId, datasetId, name, stepRunId, parentIds } = stored;
      const storageKey = datasetKey(ownerId, datasetId);
      const description = await this.deps.datasets.describe({ storageKey });
      return {
        id: datasetId,
        ownerId,
        name,
        storageKey,
        columns: description.columns,
        rowCount: description.rowCount,
        bytes: description.bytes,
        stepRunId,
        parentIds,
        createdAt: now(),
      };
    }
  }

  private async registerDataset(meta: DatasetMetadata, expiresAt: string | null): Promise<DatasetMetadata> {
    try {
      await this.datasetRows.registerDataset(meta, { expiresAt });
    } catch (err) {
      // Two workers finished the same attempt (a job taken over from a worker that was only slow):
      // the same id names the same records, so the first registration stands.
      if (!isUniqueViolation(err) || !(await this.datasetRows.findOwned(meta.ownerId, meta.id))) throw err;
    }
    return meta;
  }

  /** A deferred dataset written now (or by whoever got there first), with its real counts. */
  private async materialized(userId: string, meta: DatasetMetadata): Promise<DatasetMetadata> {
    const lease = await this.deps.datasets.files.open(meta.storageKey);
    lease.release();
    const stored = await this.ownedDataset(userId, meta.id);
    if (stored.recipe) throw new Error(`Dataset ${meta.id} is still deferred after being written`);
    return stored;
  }

  private async ownedDataset(userId: string, id: string): Promise<DatasetMetadata> {
    const meta = await this.datasetRows.findOwned(userId, id);
    if (!meta) throw new DomainError('rejected', 'server.runs.inputGone');
    return meta;
  }

  /** The model settings that apply to a run of this owner's: their own (settings) when they set one, else the operator's (LLM_*). */
  modelSettingsFor(ownerId: string): Promise<ModelSettings> {
    return this.models.settingsFor(ownerId);
  }

  /** The run's variables: values frozen at the start, secrets opened now (they are never stored in a run). */
  private async variables(run: WorkflowRunRow, snapshot: RunSnapshot): Promise<Vars> {
    const vars: Record<string, unknown> = {};
    for (const v of snapshot.variables) vars[v.name] = v.value;
    const secrets = snapshot.variables.filter((v) => v.type === 'secret').map((v) => v.name);
    if (secrets.length) {
      const rows = await this.deps.db
        .selectFrom('workflow_variables')
        .select(['name', 'value'])
        .where('workflow_id', '=', run.workflow_id)
        .where('name', 'in', secrets)
        .execute();
      for (const row of rows) if (row.value !== null) vars[row.name] = this.deps.secrets.open(row.value);
    }
    return vars;
  }

  private async event(runId: string, stepRunId: string | null, type: string, payload: unknown): Promise<void> {
    await this.repo.appendEvent(runId, stepRunId, type, payload);
    this.deps.events.notify(runId);
  }

  /** On shutdown: steps running here stop at their next check and go back to the queue. */
  stopAll(): void {
    for (const controller of this.running.values()) controller.abort('shutdown');
  }
}

/** Credits as people read them in a message: at most 4 decimals. */
const roundCredits = (micro: number) => Math.round(toCredits(micro) * 10_000) / 10_000;

/** A run's estimated cost, step by step (micro-credits). */
export interface RunEstimate {
  creditsMicro: number;
  lines: { stepId: string; stepName: string; stepType: string; per: 'run' | 'record'; records: number | null; creditsMicro: number; unitMicro: number }[];
}

/** The modal of a 402 for lack of credits (its 'Top up' button leads to the billing page). */
export function insufficientCreditsModal(content: string): ModalNotice {
  return { modal_id: 'insufficient-credits', level: 'warning', content, buttons: ['Top up', 'Cancel'] };
}

/** Checks params against the inputs' columns before anything runs (a missing column is named). */
function checkColumns(runner: StepRunner, inputs: DatasetMetadata[], params: ParamValues, vars: Vars): void {
  runner.outputColumns(
    inputs.map((i) => i.columns),
    params,
    vars,
  );
}

/** Steps reading from `stepId`, directly or not, within a run. */
function downstreamOf(snapshot: RunSnapshot, stepId: string): Set<string> {
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
