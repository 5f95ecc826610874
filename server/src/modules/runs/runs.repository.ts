import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ComputeJobsTable, StepRunBatchesTable, StepRunCallsTable, StepRunsTable, WorkflowRunsTable } from '../../db/schema';
import { isUniqueViolation } from '../../lib/db-errors';
import { DONE_STATES, type RunState } from '../../engine/run/run-states';

export type WorkflowRunRow = WorkflowRunsTable;
export type StepRunRow = StepRunsTable;
export type BatchRow = StepRunBatchesTable;
export type StepRunCallRow = StepRunCallsTable;
export type ComputeJobRow = ComputeJobsTable;

/** Which of a user's runs a list shows: all of them, or one workflow's, or those in some states. */
export interface RunFilter {
  userId: string;
  workflowId?: string | null;
  states?: readonly RunState[] | null;
}

const now = () => new Date().toISOString();
/** A compute job whose worker died, as its stored error (a catalog key, like every other). */
const WORKER_LOST = JSON.stringify({ key: 'server.runs.workerLost', values: {} });

/**
 * The run engine's rows (migration 007). Every state change is a conditional UPDATE ("… WHERE
 * state IN (…)") so two workers, or a worker and a control call, never both win: the caller learns
 * from the row count whether its change happened.
 */
export class RunsRepository {
  constructor(private readonly db: Db) {}

  async insertRun(
    run: Omit<WorkflowRunRow, 'created_at' | 'updated_at' | 'started_at' | 'ended_at' | 'error' | 'pause_reason' | 'state_reason'>,
    stepRuns: Omit<StepRunRow, 'created_at' | 'updated_at' | 'started_at' | 'ended_at' | 'state_reason'>[],
  ): Promise<void> {
    const at = now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('workflow_runs')
        .values({ ...run, error: null, pause_reason: null, state_reason: null, created_at: at, updated_at: at, started_at: at, ended_at: null })
        .execute();
      if (stepRuns.length)
        await trx
          .insertInto('step_runs')
          .values(stepRuns.map((s) => ({ ...s, state_reason: null, created_at: at, updated_at: at, started_at: null, ended_at: null })))
          .execute();
    });
  }

  findRun(id: string): Promise<WorkflowRunRow | undefined> {
    return this.db.selectFrom('workflow_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findOwnedRun(userId: string, id: string): Promise<WorkflowRunRow | undefined> {
    return this.db.selectFrom('workflow_runs').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  /** The owner's runs the filter keeps: all of them, one workflow's, in some states. */
  private filteredRuns(filter: RunFilter) {
    let q = this.db.selectFrom('workflow_runs as r').where('r.user_id', '=', filter.userId);
    if (filter.workflowId) q = q.where('r.workflow_id', '=', filter.workflowId);
    if (filter.states?.length) q = q.where('r.state', 'in', filter.states);
    return q;
  }

  /**
   * The owner's runs, newest first (without their snapshots, which can be large), each with
   * `records`: the most records any of its step runs processed, counted by the database in the
   * same query (one subquery per listed run, on the step runs' (run_id, step_id) key).
   */
  listRuns(filter: RunFilter, limit: number, offset: number) {
    return this.filteredRuns(filter)
      .select([
        'r.id',
        'r.workflow_id',
        'r.user_id',
        'r.workflow_version',
        'r.mode',
        'r.target_step_id',
        'r.sample_size',
        'r.state',
        'r.error',
        'r.pause_reason',
        'r.state_reason',
        'r.started_by',
        'r.created_at',
        'r.updated_at',
        'r.started_at',
        'r.ended_at',
      ])
      .select((eb) =>
        eb
          .selectFrom('step_runs as s')
          .select((e) => e.fn.max<number | string | null>('s.records_done').as('m'))
          .whereRef('s.run_id', '=', 'r.id')
          .as('records'),
      )
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async countRuns(filter: RunFilter): Promise<number> {
    const row = await this.filteredRuns(filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  lastRun(workflowId: string) {
    return this.db
      .selectFrom('workflow_runs')
      .select(['id', 'state', 'mode', 'created_at', 'ended_at'])
      .where('workflow_id', '=', workflowId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  stepRunsOf(runId: string): Promise<StepRunRow[]> {
    return this.db.selectFrom('step_runs').selectAll().where('run_id', '=', runId).orderBy('created_at').orderBy('id').execute();
  }

  findStepRun(id: string): Promise<StepRunRow | undefined> {
    return this.db.selectFrom('step_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A step run with its run's owner, for ownership checks. */
  findOwnedStepRun(userId: string, id: string) {
    return this.db
      .selectFrom('step_runs as s')
      .innerJoin('workflow_runs as r', 'r.id', 's.run_id')
      .selectAll('s')
      .where('s.id', '=', id)
      .where('r.user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * Every state change says why (`state_reason`: paused, failed and cancelled ones) or clears the
   * reason: a resumed or retried run never keeps the reason of the state it left.
   */
  async setRunState(
    id: string,
    to: RunState,
    from: readonly RunState[],
    extra: Partial<Pick<WorkflowRunRow, 'error' | 'ended_at' | 'pause_reason' | 'state_reason'>> = {},
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('workflow_runs')
      .set({ state: to, updated_at: now(), ...extra, state_reason: extra.state_reason ?? null })
      .where('id', '=', id)
      .where('state', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setStepRunState(
    id: string,
    to: RunState,
    from: readonly RunState[],
    extra: Partial<
      Pick<
        StepRunRow,
        | 'error'
        | 'started_at'
        | 'ended_at'
        | 'output_dataset_id'
        | 'input_dataset_ids'
        | 'records_total'
        | 'records_done'
        | 'records_failed'
        | 'attempt'
        | 'cache_key'
        | 'state_reason'
      >
    > = {},
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('step_runs')
      .set({ state: to, updated_at: now(), ...extra, state_reason: extra.state_reason ?? null })
      .where('id', '=', id)
      .where('state', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * The count of a deferred output, found when first asked (engine/run/output-counts.ts): kept on
   * these finished step runs, which wrote it and did not know it.
   */
  async setOutputCount(stepRunIds: readonly string[], count: number): Promise<void> {
    if (!stepRunIds.length) return;
    await this.db
      .updateTable('step_runs')
      .set({ records_total: count, records_done: count })
      .where('id', 'in', [...stepRunIds])
      .where('records_total', 'is', null)
      .where('state', 'in', [...DONE_STATES])
      .execute();
  }

  /** Moves every step run of a run that is in one of `from` to `to`; answers the ones moved. */
  async moveStepRuns(
    runId: string,
    to: RunState,
    from: readonly RunState[],
    extra: Partial<Pick<StepRunRow, 'ended_at' | 'error' | 'state_reason'>> = {},
  ): Promise<string[]> {
    const ids = (
      await this.db
        .selectFrom('step_runs')
        .select('id')
        .where('run_id', '=', runId)
        .where('state', 'in', [...from])
        .execute()
    ).map((r) => r.id);
    if (!ids.length) return [];
    await this.db
      .updateTable('step_runs')
      .set({ state: to, updated_at: now(), ...extra, state_reason: extra.state_reason ?? null })
      .where('id', 'in', ids)
      .where('state', 'in', [...from])
      .execute();
    return ids;
  }

  async bumpAttempt(id: string): Promise<void> {
    await this.db
      .updateTable('step_runs')
      .set({ attempt: sql`attempt + 1`, updated_at: now() })
      .where('id', '=', id)
      .execute();
  }

  async setProgress(id: string, progress: { records_done: number; records_total?: number | null; records_failed?: number }): Promise<void> {
    await this.db
      .updateTable('step_runs')
      .set({ ...progress, updated_at: now() })
      .where('id', '=', id)
      .execute();
  }

  /** The user's runs paused because their credits ran out, oldest first (they resume in that order). */
  runsPausedForCredits(userId: string) {
    return this.db
      .selectFrom('workflow_runs')
      .select('id')
      .where('user_id', '=', userId)
      .where('state', '=', 'paused')
      .where('pause_reason', '=', 'credits')
      .orderBy('created_at')
      .execute();
  }

  countPausedForCredits(userId: string): Promise<number> {
    return this.db
      .selectFrom('workflow_runs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('state', '=', 'paused')
      .where('pause_reason', '=', 'credits')
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  /** The newest finished output of a step (any run of its workflow): what "from here" and a step's input read. */
  latestOutputOf(workflowId: string, stepId: string) {
    return this.db
      .selectFrom('step_runs as s')
      .innerJoin('workflow_runs as r', 'r.id', 's.run_id')
      .innerJoin('datasets as d', 'd.id', 's.output_dataset_id')
      .select(['s.id as stepRunId', 's.output_dataset_id as datasetId', 's.ended_at as endedAt'])
      .where('r.workflow_id', '=', workflowId)
      .where('s.step_id', '=', stepId)
      .where('s.state', 'in', ['succeeded', 'cached'])
      .orderBy('s.ended_at', 'desc')
      .orderBy('s.id', 'desc')
      .executeTakeFirst();
  }

  /**
   * Each step's newest finished output among the workflow's last `runs` runs, newest first per
   * step: the columns pickers and the workflow's info show.
   */
  async latestOutputsOf(workflowId: string, userId: string, runs = 50) {
    const recent = this.db
      .selectFrom('workflow_runs')
      .select('id')
      .where('workflow_id', '=', workflowId)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(runs);
    const rows = await this.db
      .selectFrom('step_runs as s')
      .innerJoin('datasets as d', 'd.id', 's.output_dataset_id')
      .select([
        's.step_id as stepId',
        'd.id as datasetId',
        'd.row_count as rowCount',
        'd.columns as columns',
        's.params_hash as paramsHash',
        's.ended_at as endedAt',
      ])
      .where('s.run_id', 'in', recent)
      .where('s.state', 'in', ['succeeded', 'cached'])
      .where('d.user_id', '=', userId)
      .orderBy('s.ended_at', 'desc')
      .execute();
    const latest = new Map<string, { datasetId: string; rowCount: number; columns: { name: string; type: string }[]; paramsHash: string }>();
    for (const r of rows)
      if (!latest.has(r.stepId))
        latest.set(r.stepId, { datasetId: r.datasetId, rowCount: Number(r.rowCount), columns: JSON.parse(r.columns), paramsHash: r.paramsHash });
    return latest;
  }

  /** A finished step run with this cache key whose output still exists, owned by this user. */
  cachedOutput(userId: string, cacheKey: string) {
    return this.db
      .selectFrom('step_runs as s')
      .innerJoin('datasets as d', 'd.id', 's.output_dataset_id')
      .select(['s.id as stepRunId', 'd.id as datasetId'])
      .where('s.cache_key', '=', cacheKey)
      .where('s.state', '=', 'succeeded')
      .where('d.user_id', '=', userId)
      .where((eb) => eb.or([eb('d.expires_at', 'is', null), eb('d.expires_at', '>', now())]))
      .orderBy('s.ended_at', 'desc')
      .executeTakeFirst();
  }

  /** Step runs left queued or running by a process that stopped (the queue may have lost their jobs). */
  unfinishedStepRuns() {
    return this.db
      .selectFrom('step_runs as s')
      .innerJoin('workflow_runs as r', 'r.id', 's.run_id')
      .select(['s.id', 's.attempt', 's.run_id'])
      .where('r.state', '=', 'running')
      .where('s.state', 'in', ['queued', 'running'])
      .execute();
  }

  // Batches of per-record steps.

  batchesOf(stepRunId: string): Promise<BatchRow[]> {
    return this.db.selectFrom('step_run_batches').selectAll().where('step_run_id', '=', stepRunId).orderBy('batch_no').execute();
  }

  /** Forgets a step run's batches and checkpointed calls: its next attempt starts from its first record. */
  async deleteBatches(stepRunId: string): Promise<void> {
    await this.db.deleteFrom('step_run_batches').where('step_run_id', '=', stepRunId).execute();
    await this.forgetCalls(stepRunId);
  }

  // Outside calls checkpointed one by one (engine/run/call-journal.ts).

  /** The calls of the step run stored under these keys (at most a few hundred: one batch). */
  finishedCalls(stepRunId: string, keys: readonly string[]): Promise<Pick<StepRunCallRow, 'call_key' | 'result' | 'failed'>[]> {
    if (!keys.length) return Promise.resolve([]);
    return this.db
      .selectFrom('step_run_calls')
      .select(['call_key', 'result', 'failed'])
      .where('step_run_id', '=', stepRunId)
      .where('call_key', 'in', [...keys])
      .execute();
  }

  /** Stores finished calls; a key stored again (a call repeated after a crash) keeps the newest answer. */
  async saveCalls(rows: readonly StepRunCallRow[]): Promise<void> {
    if (!rows.length) return;
    await this.db
      .insertInto('step_run_calls')
      .values([...rows])
      .onConflict((oc) =>
        oc.columns(['step_run_id', 'call_key']).doUpdateSet((eb) => ({
          result: eb.ref('excluded.result'),
          failed: eb.ref('excluded.failed'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .execute();
  }

  /** Drops the step run's checkpointed calls: those of `keys` (a stored batch), or all. */
  async forgetCalls(stepRunId: string, keys?: readonly string[]): Promise<void> {
    if (keys && !keys.length) return;
    let query = this.db.deleteFrom('step_run_calls').where('step_run_id', '=', stepRunId);
    if (keys) query = query.where('call_key', 'in', [...keys]);
    await query.execute();
  }

  /**
   * Records a batch as done, once: a second worker finishing the same batch (a stalled job taken
   * over) changes nothing, since its output part has the same key and the same records.
   */
  async finishBatch(
    batch: Pick<BatchRow, 'step_run_id' | 'batch_no' | 'first_record' | 'record_count' | 'records_failed' | 'output_key' | 'checkpoint'>,
  ): Promise<void> {
    const at = now();
    const row = { ...batch, state: 'succeeded' as const, error: null, attempt: 1, created_at: at, updated_at: at };
    await this.db
      .insertInto('step_run_batches')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['step_run_id', 'batch_no']).doUpdateSet({
          state: 'succeeded',
          records_failed: batch.records_failed,
          output_key: batch.output_key,
          checkpoint: batch.checkpoint,
          error: null,
          attempt: sql`step_run_batches.attempt + 1`,
          updated_at: at,
        }),
      )
      .execute();
  }

  /**
   * "Retry failed records": the batches with failures run again; the others stay done. Their failed
   * records are to be called again, so no checkpointed call of the step run may stand in for them.
   */
  async reopenFailedBatches(stepRunId: string): Promise<number> {
    await this.forgetCalls(stepRunId);
    const result = await this.db
      .updateTable('step_run_batches')
      .set({ state: 'queued', updated_at: now() })
      .where('step_run_id', '=', stepRunId)
      .where('records_failed', '>', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  // Compute jobs.

  async startComputeJob(stepRunId: string, worker: string, attempt: number): Promise<string> {
    const id = randomUUID();
    const at = now();
    await this.db
      .insertInto('compute_jobs')
      .values({
        id,
        step_run_id: stepRunId,
        batch_no: null,
        state: 'running',
        worker,
        attempt,
        queued_at: at,
        started_at: at,
        ended_at: null,
        cpu_ms: 0,
        peak_rss_bytes: null,
        cost_micros: 0,
        log_lines: '[]',
        log_dropped: 0,
        error: null,
      })
      .execute();
    return id;
  }

  async endComputeJob(id: string, end: Pick<ComputeJobRow, 'state' | 'cpu_ms' | 'peak_rss_bytes' | 'log_lines' | 'log_dropped' | 'error'>): Promise<void> {
    await this.db
      .updateTable('compute_jobs')
      .set({ ...end, ended_at: now() })
      .where('id', '=', id)
      .execute();
  }

  /**
   * A compute job still `running` when its step run starts again belonged to a process that died
   * (a worker killed or lost): it failed, with a reason its user can read (a stored error is a
   * catalog key, like every other).
   */
  async abandonComputeJobs(stepRunId: string): Promise<void> {
    await this.db
      .updateTable('compute_jobs')
      .set({ state: 'failed', error: WORKER_LOST, ended_at: now() })
      .where('step_run_id', '=', stepRunId)
      .where('state', '=', 'running')
      .execute();
  }

  /** How many workers died running this attempt of the step run (compute jobs numbered attempt + 1). */
  async lostWorkers(stepRunId: string, attempt: number): Promise<number> {
    const row = await this.db
      .selectFrom('compute_jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('step_run_id', '=', stepRunId)
      .where('attempt', '=', attempt + 1)
      .where('error', '=', WORKER_LOST)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  computeJobsOf(stepRunIds: string[]): Promise<ComputeJobRow[]> {
    if (!stepRunIds.length) return Promise.resolve([]);
    return this.db.selectFrom('compute_jobs').selectAll().where('step_run_id', 'in', stepRunIds).orderBy('queued_at').orderBy('id').execute();
  }

  // Run events.

  /**
   * Appends an event with the run's next sequence number. Two processes appending at once collide
   * on the unique (run_id, seq): the loser takes the next number.
   */
  async appendEvent(runId: string, stepRunId: string | null, type: string, payload: unknown): Promise<number> {
    for (let tries = 0; ; tries++) {
      const last = await this.db
        .selectFrom('run_events')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .where('run_id', '=', runId)
        .executeTakeFirst();
      const seq = Number(last?.seq ?? 0) + 1;
      try {
        await this.db
          .insertInto('run_events')
          .values({ id: randomUUID(), run_id: runId, seq, step_run_id: stepRunId, type, payload: JSON.stringify(payload ?? {}), created_at: now() })
          .execute();
        return seq;
      } catch (err) {
        if (tries < 20 && isUniqueViolation(err)) continue;
        throw err;
      }
    }
  }

  /** The run's newest event: its number and type (null before the first). */
  async lastEvent(runId: string): Promise<{ seq: number; type: string } | null> {
    const row = await this.db.selectFrom('run_events').select(['seq', 'type']).where('run_id', '=', runId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
    return row ? { seq: Number(row.seq), type: row.type } : null;
  }

  eventsAfter(runId: string, afterSeq: number, limit: number) {
    return this.db.selectFrom('run_events').selectAll().where('run_id', '=', runId).where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
  }
}
