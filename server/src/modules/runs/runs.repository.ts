import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ComputeJobsTable, StepRunBatchesTable, StepRunsTable, WorkflowRunsTable } from '../../db/schema';
import { isUniqueViolation } from '../../lib/db-errors';
import type { RunState } from './run-states';

export type WorkflowRunRow = WorkflowRunsTable;
export type StepRunRow = StepRunsTable;
export type BatchRow = StepRunBatchesTable;
export type ComputeJobRow = ComputeJobsTable;

const now = () => new Date().toISOString();

/**
 * The run engine's rows (migration 007). Every state change is a conditional UPDATE ("… WHERE
 * state IN (…)") so two workers, or a worker and a control call, never both win: the caller learns
 * from the row count whether its change happened.
 */
export class RunsRepository {
  constructor(private readonly db: Db) {}

  async insertRun(
    run: Omit<WorkflowRunRow, 'created_at' | 'updated_at' | 'started_at' | 'ended_at' | 'error' | 'pause_reason'>,
    stepRuns: Omit<StepRunRow, 'created_at' | 'updated_at' | 'started_at' | 'ended_at'>[],
  ): Promise<void> {
    const at = now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('workflow_runs')
        .values({ ...run, error: null, pause_reason: null, created_at: at, updated_at: at, started_at: at, ended_at: null })
        .execute();
      if (stepRuns.length)
        await trx
          .insertInto('step_runs')
          .values(stepRuns.map((s) => ({ ...s, created_at: at, updated_at: at, started_at: null, ended_at: null })))
          .execute();
    });
  }

  findRun(id: string): Promise<WorkflowRunRow | undefined> {
    return this.db.selectFrom('workflow_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findOwnedRun(userId: string, id: string): Promise<WorkflowRunRow | undefined> {
    return this.db.selectFrom('workflow_runs').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  /** A workflow's runs, newest first (without their snapshots, which can be large). */
  listRuns(workflowId: string, userId: string, limit: number, offset: number) {
    return this.db
      .selectFrom('workflow_runs')
      .select([
        'id',
        'workflow_id',
        'user_id',
        'workflow_version',
        'mode',
        'target_step_id',
        'sample_size',
        'state',
        'error',
        'pause_reason',
        'created_at',
        'updated_at',
        'started_at',
        'ended_at',
      ])
      .where('workflow_id', '=', workflowId)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async countRuns(workflowId: string, userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('workflow_runs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workflow_id', '=', workflowId)
      .where('user_id', '=', userId)
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

  async setRunState(
    id: string,
    to: RunState,
    from: readonly RunState[],
    extra: Partial<Pick<WorkflowRunRow, 'error' | 'ended_at' | 'pause_reason'>> = {},
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('workflow_runs')
      .set({ state: to, updated_at: now(), ...extra })
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
      >
    > = {},
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('step_runs')
      .set({ state: to, updated_at: now(), ...extra })
      .where('id', '=', id)
      .where('state', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Moves every step run of a run that is in one of `from` to `to`; answers the ones moved. */
  async moveStepRuns(runId: string, to: RunState, from: readonly RunState[], extra: Partial<Pick<StepRunRow, 'ended_at' | 'error'>> = {}): Promise<string[]> {
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
      .set({ state: to, updated_at: now(), ...extra })
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
      .select(['s.step_id as stepId', 'd.id as datasetId', 'd.row_count as rowCount', 'd.columns as columns', 's.ended_at as endedAt'])
      .where('s.run_id', 'in', recent)
      .where('s.state', 'in', ['succeeded', 'cached'])
      .where('d.user_id', '=', userId)
      .orderBy('s.ended_at', 'desc')
      .execute();
    const latest = new Map<string, { datasetId: string; rowCount: number; columns: { name: string; type: string }[] }>();
    for (const r of rows)
      if (!latest.has(r.stepId)) latest.set(r.stepId, { datasetId: r.datasetId, rowCount: Number(r.rowCount), columns: JSON.parse(r.columns) });
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

  /** "Retry failed records": the batches with failures run again; the others stay done. */
  async reopenFailedBatches(stepRunId: string): Promise<number> {
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

  /** Compute jobs still marked running for a step run (a worker that died leaves one behind). */
  /**
   * A compute job still `running` when its step run starts again belonged to a process that died
   * (a worker killed or lost): it failed, with a reason its user can read (a stored error is a
   * catalog key, like every other).
   */
  async abandonComputeJobs(stepRunId: string): Promise<void> {
    const lost = JSON.stringify({ key: 'server.runs.workerLost', values: {} });
    await this.db
      .updateTable('compute_jobs')
      .set({ state: 'failed', error: lost, ended_at: now() })
      .where('step_run_id', '=', stepRunId)
      .where('state', '=', 'running')
      .execute();
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
