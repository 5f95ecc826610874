import { randomUUID } from 'node:crypto';
import type { Job } from '../../jobs/queue';
import { invalid, notFound, rejected, ValidationFailed } from '../../lib/errors';
import type { RunsRepository } from '../../modules/runs/runs.repository';
import { findCycle } from '../../modules/workflows/workflow-state';
import { paramLabel, validateParams } from '../params';
import { getStepType } from '../step-types';
import { EngineCore, sha256 } from './engine-core';
import { RunEstimates, type RunEstimate } from './estimates';
import type { RunEngineDeps } from './ports';
import { RunControl } from './run-control';
import { planRun } from './run-plan';
import type { RunAction, RunMode, RunStarter, StepRunAction } from './run-states';
import { Scheduler, STEP_RUN_JOB, type RunSnapshot, type StepRunJob } from './scheduler';
import { StepExecutor } from './step-executor';
import { StepKinds } from './step-kinds';
import { OutputCounts } from './output-counts';
import { columnsBeforeRun, type ColumnsStep } from './columns-before-run';

/** A sample run reads at most this many records per source. */
export const MAX_SAMPLE_SIZE = 10_000;

/**
 * The run engine: starts runs, executes step runs as queued jobs, and takes pause, resume, cancel
 * and retry. Its parts, one job each: the Scheduler (the DAG: skip, enqueue, end), the
 * StepExecutor (one step run as a job) with StepKinds (the work by kind), RunControl (pause,
 * resume, cancel, retry) and RunEstimates (costs and the credit gates). The database is reached
 * through the repositories and services in `deps`, wired by the composition root.
 */
export class RunEngine {
  private readonly core: EngineCore;
  private readonly scheduler: Scheduler;
  private readonly estimates: RunEstimates;
  private readonly control: RunControl;
  private readonly executor: StepExecutor;
  /** Counts of deferred outputs, on first read (output-counts.ts). */
  readonly outputCounts: OutputCounts;

  constructor(private readonly deps: RunEngineDeps) {
    this.core = new EngineCore(deps);
    this.scheduler = new Scheduler(this.core);
    this.estimates = new RunEstimates(this.core);
    this.control = new RunControl(this.core, this.scheduler, this.estimates);
    const pauseForCredits = (runId: string) => this.control.pauseForCredits(runId);
    this.executor = new StepExecutor(this.core, this.scheduler, new StepKinds(this.core, pauseForCredits), pauseForCredits);
    this.outputCounts = new OutputCounts(deps);
  }

  /** The runs' tables, for reading runs (modules/runs' service). */
  get repo(): RunsRepository {
    return this.deps.runs;
  }

  /** Consumes step-run jobs in this process (the API's in-process worker, or `npm run worker`). */
  register(): void {
    this.deps.jobs.process<StepRunJob>(STEP_RUN_JOB, (job: Job<StepRunJob>) => this.executor.handle(job));
  }

  /** False when nothing consumes step runs (API processes with IN_PROCESS_WORKER=false and no `npm run worker`); null: unknown. */
  hasWorkers(): Promise<boolean | null> {
    return this.scheduler.hasWorkers();
  }

  /**
   * Refuses a run in which a step names a column its input does not have, with the runner's "did
   * you mean", before anything runs (it would fail at that step). The inputs' columns are what
   * running tells without running (columns-before-run.ts); a source's are its last output's only
   * where that output is still what the step would make: a deterministic step with the same params.
   */
  private async refuseUnknownColumns(
    userId: string,
    workflowId: string,
    steps: readonly (ColumnsStep & { name: string })[],
    planned: readonly string[],
    variables: readonly { name: string; value: unknown }[],
  ): Promise<void> {
    const byId = new Map(steps.map((s) => [s.id, s]));
    const vars = Object.fromEntries(variables.filter((v) => v.value !== null).map((v) => [v.name, v.value]));
    const derived = columnsBeforeRun(steps, new Map(), vars, true);
    let problems = derived.problems;
    // The last outputs stand in only for columns the runners cannot tell; when they tell them all
    // (a typed table, a filter, a sort…), the run starts without reading the workflow's past runs.
    if ([...derived.columns.values()].some((c) => c === null)) {
      const last = await this.deps.runs.latestOutputsOf(workflowId, userId);
      const current = new Map(
        [...last].filter(([id, output]) => {
          const step = byId.get(id);
          return !!step && !!getStepType(step.step_type)?.cacheable && output.paramsHash === sha256(step.param_inputs);
        }),
      );
      problems = columnsBeforeRun(steps, current, vars, true).problems;
    }
    for (const id of planned) {
      const problem = problems.get(id);
      if (!problem) continue;
      const name = byId.get(id)!.name;
      throw new ValidationFailed(problem.problems.map((p) => ({ ...p, loc: ['path', 'stepId', ...p.loc], label: { en: name } })));
    }
  }

  async start(
    userId: string,
    workflowId: string,
    stepId: string,
    options: { mode: RunMode; sampleSize: number | null; /** Who or what starts it for `userId` (default 'user'). */ startedBy?: RunStarter },
  ): Promise<string> {
    const { workflows, credits } = this.deps;
    const workflow = await workflows.findOwned(workflowId, userId);
    if (!workflow) throw notFound('server.workflows.notFound');
    const state = await workflows.loadSnapshot(workflow);
    if (!state.steps.some((s) => s.id === stepId)) throw notFound('server.steps.notFound');
    if (findCycle(state.steps)) throw rejected('server.runs.cycle');

    const plan = planRun(state.steps, stepId, options.mode);
    const byId = new Map(state.steps.map((s) => [s.id, s]));
    for (const id of plan.steps) {
      const step = byId.get(id)!;
      const type = getStepType(step.step_type)?.description;
      if (!type) throw invalid('server.runs.unknownStepType', ['path', 'stepId'], { step: step.name }, { label: { en: step.name } });
      const issues = validateParams(type, step.param_inputs, 'replace');
      // Said as the step form says it: the param's label in the caller's language, and the step by its name.
      if (issues.length)
        throw invalid(
          'server.runs.stepNeedsSettings',
          ['path', 'stepId'],
          { step: step.name },
          { words: { param: paramLabel(type, issues[0].param) }, label: { en: step.name } },
        );
      if (step.inputs.length < type.inputs.min)
        throw invalid('server.runs.stepNeedsInputs', ['path', 'stepId'], { step: step.name }, { label: { en: step.name } });
    }
    const variables = state.variables.map((v) => ({ name: v.name, type: v.type, value: v.type === 'secret' || v.value === null ? null : JSON.parse(v.value) }));
    await this.refuseUnknownColumns(userId, workflowId, state.steps, plan.steps, variables);
    const external: Record<string, string> = {};
    for (const id of plan.external) {
      const last = await this.deps.runs.latestOutputOf(workflowId, id);
      if (!last?.datasetId) throw rejected('server.runs.inputNotRun', { step: byId.get(id)?.name ?? id });
      external[id] = last.datasetId;
    }
    if (credits.enabled)
      await this.estimates.requireCreditsFor(userId, await this.estimates.estimatePlan(userId, workflowId, state.steps, plan, options.sampleSize));

    const snapshot: RunSnapshot = {
      steps: plan.steps.map((id) => {
        const s = byId.get(id)!;
        return { id: s.id, step_type: s.step_type, name: s.name, param_inputs: s.param_inputs, inputs: s.inputs };
      }),
      variables,
      external,
    };
    const runId = randomUUID();
    await this.deps.runs.insertRun(
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
        started_by: options.startedBy ?? 'user',
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
    await this.core.emit(runId, null, 'run_started', { mode: options.mode, target_step_id: stepId, sample_size: options.sampleSize, steps: plan.steps.length });
    await this.scheduler.advance(runId);
    return runId;
  }

  /** What a run would cost (same arguments as `start`): the editor's estimate, and the check before a run. */
  estimate(userId: string, workflowId: string, stepId: string | null, options: { mode: RunMode; sampleSize: number | null }): Promise<RunEstimate> {
    return this.estimates.estimate(userId, workflowId, stepId, options);
  }

  controlRun(userId: string, runId: string, action: RunAction): Promise<void> {
    return this.control.controlRun(userId, runId, action);
  }

  controlStepRun(userId: string, stepRunId: string, action: StepRunAction): Promise<void> {
    return this.control.controlStepRun(userId, stepRunId, action);
  }

  /** Resumes the user's runs paused for lack of credits, once the balance is above 0 (app.credits.onCredited). */
  resumeForCredits(userId: string): Promise<number> {
    return this.control.resumeForCredits(userId);
  }

  /** After a restart: requeues the step runs a previous process left unfinished. */
  recover(): Promise<number> {
    return this.scheduler.recover();
  }

  /** On shutdown: steps running here stop at their next check and go back to the queue. */
  stopAll(): void {
    this.executor.stopAll();
  }
}
