import { chatModelFor, embeddingModelFor, NoModelConfigured, type ModelSettings } from '../../ai';
import { isUniqueViolation } from '../../lib/db-errors';
import { DomainError } from '../../lib/errors';
import type { StepRunRow, WorkflowRunRow } from '../../modules/runs/runs.repository';
import { DatasetAlreadyStored, datasetKey, type DatasetMetadata } from '../datasets';
import type { ParamValues } from '../params';
import { runSqlStep, StepRunFailed, type RunContext, type StepRunner, type Vars } from '../runners';
import { getStepType } from '../step-types';
import type { LogKey, LogValue, LogValues } from '../run-log';
import { now, sha256, uuidFrom, type EngineCore } from './engine-core';
import { PerRecordBatches, partsPrefix } from './per-record-batches';
import { StoredCallJournal } from './call-journal';
import type { ChargedStep, PrunableAnswerCache, ReportedUsage, StepFiles } from './ports';
import type { RunSnapshot } from './scheduler';

/** Datasets written by a sample run (a quick preview) are deleted after this long. */
const SAMPLE_DATASET_TTL_MS = 24 * 3600_000;
/** A progress update is written at most this often per step run. */
const PROGRESS_EVERY_MS = 500;

/** One try of a step run, as the executor hands it over. */
export interface StepWork {
  run: WorkflowRunRow;
  stepRun: StepRunRow;
  step: RunSnapshot['steps'][number];
  snapshot: RunSnapshot;
  inputIds: string[];
  controller: AbortController;
  log: (key: LogKey, values?: LogValues) => void;
  files: StepFiles;
  onProgress: () => void;
}

export interface StepResult {
  output: DatasetMetadata;
  failed: number;
  done?: number;
  cached?: boolean;
  cacheKey: string;
  summary?: unknown;
  /** A streaming sink over a deferred input counts what it sent: the step's records, though its output stays deferred. */
  counted?: number;
}

/**
 * Does a step's work by its kind (SQL, source, sink, per-record): reuses an equal earlier output
 * when the step type is cacheable, builds the runners' RunContext, writes the output dataset once
 * per attempt (a retried write reads back what a crashed try stored), and charges the work.
 */
export class StepKinds {
  private readonly batches: PerRecordBatches;

  constructor(
    private readonly core: EngineCore,
    /** The run's balance ran out (after a batch): the run pauses where it is. */
    private readonly pauseForCredits: (runId: string) => Promise<void>,
  ) {
    this.batches = new PerRecordBatches(core.runs, core.deps.storage, core.deps.datasets);
  }

  async run(a: StepWork): Promise<StepResult> {
    const { run, stepRun, step, snapshot, controller, log, files } = a;
    const { deps } = this.core;
    const type = getStepType(step.step_type);
    if (!type) throw new DomainError('rejected', 'server.runs.stepNotRunnable', { step: step.name });
    const runner = type.runner;
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

    if (type.cacheable) {
      const cached = await this.core.runs.cachedOutput(run.user_id, cacheKey);
      if (cached) {
        log('server.runLog.reused', { stepRunId: cached.stepRunId });
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
      deps.usage.record(
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
      await deps.credits.chargeBatch(charged, batch.no, batch.recordIds, used);
    };
    const afterBatch = async () => {
      if (await deps.credits.exhausted(run.user_id)) await this.pauseForCredits(run.id);
    };
    const calls = new StoredCallJournal(this.core.runs, stepRun.id);
    const aiCache = deps.answerCache(run.user_id);
    const ai = aiAccess(await deps.models.settingsFor(run.user_id), deps.config.llm.timeoutMs, aiCache);
    const ctx: RunContext = {
      ownerId: run.user_id,
      stepRunId: stepRun.id,
      signal: controller.signal,
      vars,
      sampleSize: run.sample_size,
      datasets: deps.datasets,
      dataset: async (id) => {
        const meta = await deps.datasetCatalog.findOwned(run.user_id, id);
        if (!meta) throw new StepRunFailed(`The dataset ${id} no longer exists among your datasets; choose another in the step's settings`, null);
        return meta;
      },
      files,
      http: deps.http,
      calls,
      ai,
      output: { datasetId, name },
      usage: (event) => usage.push(event),
      log,
      progress: ({ done, total }) => {
        a.onProgress();
        const at = Date.now();
        if (at - lastProgress < PROGRESS_EVERY_MS) return;
        lastProgress = at;
        void this.core.runs
          .setProgress(stepRun.id, { records_done: done, ...(total !== undefined ? { records_total: total } : {}) })
          .then(() => this.core.emit(run.id, stepRun.id, 'step_progress', { done, total: total ?? null }))
          .catch((err) => deps.log.warn({ err }, 'could not record progress'));
      },
    };
    const expiresAt = run.sample_size ? new Date(Date.now() + SAMPLE_DATASET_TTL_MS).toISOString() : null;

    // A crash after the dataset was written but before the step run said so: use what is there.
    const existing = await deps.datasetCatalog.findOwned(run.user_id, datasetId);
    if (existing) return { output: existing, failed: Number(stepRun.records_failed), cacheKey };

    // Steps that read their input record by record or need its count get a deferred input written
    // first (once: it stays stored); SQL steps and streaming sinks read it through its recipe.
    if (inputs.some((i) => i.recipe) && (runner.kind === 'per-record' || (runner.kind === 'sink' && !runner.streamsInput) || runner.kind === 'source')) {
      inputs = await Promise.all(inputs.map((i) => (i.recipe ? this.materialized(run.user_id, i) : i)));
    }
    const read: LogValue[] = inputs.map((i) =>
      i.recipe ? { key: 'server.runLog.deferredInput' } : { key: 'server.runLog.records', values: { count: i.rowCount } },
    );
    log('server.runLog.running', { type: step.step_type, inputs: read.length ? read : { key: 'server.runLog.noInput' } });
    let output: DatasetMetadata;
    let failed = 0;
    let summary: unknown;
    let counted: number | undefined;
    const registered = (meta: DatasetMetadata) => this.registerDataset(meta, expiresAt);
    // What a snapshot written by this try is, should it have to be read back (writeOnce).
    const stored = { ownerId: run.user_id, datasetId, name, stepRunId: stepRun.id, parentIds: inputs.map((i) => i.id) };
    switch (runner.kind) {
      case 'sql':
        output = await registered(
          await this.writeOnce(stored, () =>
            runSqlStep(deps.datasets, { runner, inputs, params, vars, ownerId: run.user_id, name, stepRunId: stepRun.id, datasetId, defer: true }),
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
        // The calls it checkpointed (a webhook's requests) are done with: its summary says what was sent.
        if (type.outsideCalls !== 'none') await this.core.runs.forgetCalls(stepRun.id);
        summary = { ...(result.summary ?? {}), ...(result.files ? { files: result.files.map((f) => ({ id: f.id, name: f.name })) } : {}) };
        for (const f of result.files ?? []) log('server.runLog.savedFile', { name: f.name, size: f.size });
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
              calls,
            });
            return result.output;
          }),
        );
        // Checkpoints a crash left behind between storing a batch and dropping them.
        await this.core.runs.forgetCalls(stepRun.id);
        failed = (await this.core.runs.batchesOf(stepRun.id)).reduce((sum, b) => sum + Number(b.records_failed), 0);
        // The parts are kept while some records failed: "retry failed records" redoes only those
        // and takes the other records' results from their parts.
        if (!failed)
          await deps.storage.deletePrefix(partsPrefix(run.user_id, stepRun.id)).catch((err) => deps.log.warn({ err }, 'could not delete batch parts'));
        break;
      }
    }
    await recordUsage(usage.splice(0));
    // Batches were charged as they finished; any other step is charged once, here.
    if (runner.kind !== 'per-record') await deps.credits.chargeStep(charged, output.recipe ? (counted ?? null) : output.rowCount);
    if (type.outsideCalls === 'ai') {
      const pruned = await aiCache.prune().catch((err) => void deps.log.warn({ err }, 'could not prune the AI answer cache'));
      if (pruned) log('server.runLog.pruned', { count: pruned });
    }
    if (output.recipe) log('server.runLog.doneDeferred');
    else if (failed) log('server.runLog.doneWithFailures', { count: output.rowCount, failed });
    else log('server.runLog.done', { count: output.rowCount });
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
      const description = await this.core.deps.datasets.describe({ storageKey });
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
    const catalog = this.core.deps.datasetCatalog;
    try {
      await catalog.registerDataset(meta, { expiresAt });
    } catch (err) {
      // Two workers finished the same attempt (a job taken over from a worker that was only slow):
      // the same id names the same records, so the first registration stands.
      if (!isUniqueViolation(err) || !(await catalog.findOwned(meta.ownerId, meta.id))) throw err;
    }
    return meta;
  }

  /** A deferred dataset written now (or by whoever got there first), with its real counts. */
  private async materialized(userId: string, meta: DatasetMetadata): Promise<DatasetMetadata> {
    const lease = await this.core.deps.datasets.files.open(meta.storageKey);
    lease.release();
    const stored = await this.ownedDataset(userId, meta.id);
    if (stored.recipe) throw new Error(`Dataset ${meta.id} is still deferred after being written`);
    return stored;
  }

  private async ownedDataset(userId: string, id: string): Promise<DatasetMetadata> {
    const meta = await this.core.deps.datasetCatalog.findOwned(userId, id);
    if (!meta) throw new DomainError('rejected', 'server.runs.inputGone');
    return meta;
  }

  /** The run's variables: values frozen at the start, secrets opened now (they are never stored in a run). */
  private async variables(run: WorkflowRunRow, snapshot: RunSnapshot): Promise<Vars> {
    const vars: Record<string, unknown> = {};
    for (const v of snapshot.variables) vars[v.name] = v.value;
    const secrets = snapshot.variables.filter((v) => v.type === 'secret').map((v) => v.name);
    for (const row of await this.core.deps.workflows.secretValues(run.workflow_id, secrets)) {
      if (row.value !== null) vars[row.name] = this.core.deps.secrets.open(row.value);
    }
    return vars;
  }
}

/** The AI steps' models (`RunContext.ai`): none configured, each use throws NoModelConfigured. */
function aiAccess(settings: ModelSettings, timeoutMs: number, cache: PrunableAnswerCache): RunContext['ai'] {
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

/** Checks params against the inputs' columns before anything runs (a missing column is named). */
function checkColumns(runner: StepRunner, inputs: DatasetMetadata[], params: ParamValues, vars: Vars): void {
  runner.outputColumns(
    inputs.map((i) => i.columns),
    params,
    vars,
  );
}
