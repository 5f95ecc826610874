import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestampType } from './column-types';

/**
 * The run engine's tables. The database, not the queue, is the source of truth: a queue job only
 * says "look at step run X", so after a crash the engine requeues every step run still `queued` or
 * `running` from these rows, and a per-record step resumes after its last `succeeded` batch.
 *
 *   workflow_runs ─┬─< step_runs ─┬─< step_run_batches   (UNIQUE step_run_id + batch_no)
 *                  │              ├─< compute_jobs
 *                  │              └── output_dataset_id ─► datasets ─< dataset_parents
 *                  └─< run_events (UNIQUE run_id + seq)
 *
 * States of runs, step runs, batches and compute jobs: queued, running, paused, succeeded, failed,
 * cancelled, skipped, cached (text, checked by the code that writes them, as elsewhere).
 * JSON values are text on both databases: read and written whole, never queried inside.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestampType(dialect);

  await db.schema
    .createTable('workflow_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Deleting a workflow deletes its runs (and through them step runs, batches, events, jobs);
    // the datasets they wrote belong to the user and outlive them (datasets.step_run_id → NULL).
    .addColumn('workflow_id', 'text', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('workflow_version', 'integer', (c) => c.notNull())
    // The workflow as it was when the run started (steps, params, variables without secrets):
    // a run executes what was asked even if the workflow is edited meanwhile.
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('all'))
    // No foreign key: the step may be deleted later, the run's record must stay readable.
    .addColumn('target_step_id', 'text')
    .addColumn('sample_size', 'integer')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('started_at', ts)
    .addColumn('ended_at', ts)
    .execute();
  await db.schema.createIndex('workflow_runs_workflow_created').on('workflow_runs').columns(['workflow_id', 'created_at']).execute();
  await db.schema.createIndex('workflow_runs_user_created').on('workflow_runs').columns(['user_id', 'created_at']).execute();
  // Recovery after a restart looks for unfinished runs.
  await db.schema.createIndex('workflow_runs_state').on('workflow_runs').column('state').execute();

  await db.schema
    .createTable('step_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull().references('workflow_runs.id').onDelete('cascade'))
    .addColumn('step_id', 'text', (c) => c.notNull())
    .addColumn('step_type', 'text', (c) => c.notNull())
    .addColumn('type_version', 'integer', (c) => c.notNull().defaultTo(1))
    // SHA-256 of the resolved params; cache_key adds the step type, its version and the input
    // datasets, so an equal key means an equal output (state `cached`, output reused).
    .addColumn('params_hash', 'text', (c) => c.notNull())
    .addColumn('cache_key', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
    // JSON string[] of dataset ids, in the order of the step's inputs.
    .addColumn('input_dataset_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    // No foreign key (datasets.step_run_id points the other way; a cached step run points at a
    // dataset another run wrote); the dataset's owner is checked when it is read.
    .addColumn('output_dataset_id', 'text')
    .addColumn('records_total', 'bigint')
    .addColumn('records_done', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('records_failed', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('started_at', ts)
    .addColumn('ended_at', ts)
    // One step run per step in a run: creating it twice (a retried scheduler) is a conflict, not a copy.
    .addUniqueConstraint('step_runs_run_step', ['run_id', 'step_id'])
    .execute();
  await db.schema.createIndex('step_runs_cache_key').on('step_runs').columns(['cache_key', 'state']).execute();
  await db.schema.createIndex('step_runs_state').on('step_runs').column('state').execute();

  await db.schema
    .createTable('step_run_batches')
    .addColumn('step_run_id', 'text', (c) => c.notNull().references('step_runs.id').onDelete('cascade'))
    .addColumn('batch_no', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
    // Records [first_record, first_record + record_count) of the step's input.
    .addColumn('first_record', 'bigint', (c) => c.notNull())
    .addColumn('record_count', 'integer', (c) => c.notNull())
    .addColumn('records_failed', 'integer', (c) => c.notNull().defaultTo(0))
    // Storage key of this batch's finished output part; written before the batch is marked succeeded.
    .addColumn('output_key', 'text')
    // JSON the step type may keep between attempts (e.g. a cursor, usage so far).
    .addColumn('checkpoint', 'text')
    .addColumn('error', 'text')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    // A batch is written once per number: two workers finishing the same batch cannot both add it.
    .addPrimaryKeyConstraint('step_run_batches_pk', ['step_run_id', 'batch_no'])
    .execute();

  await db.schema
    .createTable('datasets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // The owner: every read checks it (another user's dataset answers 404).
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // `users/<user_id>/datasets/<id>.parquet`; immutable once the row exists.
    .addColumn('storage_key', 'text', (c) => c.notNull())
    // JSON [{name, type}] in column order.
    .addColumn('columns', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('row_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('step_run_id', 'text', (c) => c.references('step_runs.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    // NULL: kept until deleted; otherwise housekeeping deletes the row and its file after this.
    .addColumn('expires_at', ts)
    .execute();
  await db.schema.createIndex('datasets_user_created').on('datasets').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('datasets_step_run').on('datasets').column('step_run_id').execute();
  await db.schema.createIndex('datasets_expires').on('datasets').column('expires_at').execute();

  // Lineage: which datasets a dataset was made from.
  await db.schema
    .createTable('dataset_parents')
    .addColumn('dataset_id', 'text', (c) => c.notNull().references('datasets.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.notNull().references('datasets.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('dataset_parents_pk', ['dataset_id', 'parent_id'])
    .execute();
  await db.schema.createIndex('dataset_parents_parent').on('dataset_parents').column('parent_id').execute();

  // One attempt at running a step run (or one batch of it) on a worker: what it cost and what it logged.
  await db.schema
    .createTable('compute_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('step_run_id', 'text', (c) => c.notNull().references('step_runs.id').onDelete('cascade'))
    .addColumn('batch_no', 'integer')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
    // host:pid of the worker process that took it.
    .addColumn('worker', 'text')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('queued_at', ts, (c) => c.notNull())
    .addColumn('started_at', ts)
    .addColumn('ended_at', ts)
    .addColumn('cpu_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('peak_rss_bytes', 'bigint')
    // Millionths of a credit, so sums are exact integers; the ledger entry is written separately.
    .addColumn('cost_micros', 'bigint', (c) => c.notNull().defaultTo(0))
    // JSON string[] of the last lines only (the writer keeps at most a fixed number);
    // log_dropped counts the older lines left out.
    .addColumn('log_lines', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('log_dropped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('compute_jobs_step_run').on('compute_jobs').columns(['step_run_id', 'queued_at']).execute();

  // What happened in a run, in order, for progress streams and the run log. seq is per run.
  await db.schema
    .createTable('run_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull().references('workflow_runs.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('step_run_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', ts, (c) => c.notNull())
    // Also the index a reader uses to ask for "events after seq N".
    .addUniqueConstraint('run_events_run_seq', ['run_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['run_events', 'compute_jobs', 'dataset_parents', 'datasets', 'step_run_batches', 'step_runs', 'workflow_runs']) {
    await db.schema.dropTable(table).execute();
  }
}
