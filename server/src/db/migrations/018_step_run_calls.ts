import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestampType } from './column-types';

/**
 * The outside calls of per-record steps (HTTP request, webhook) checkpointed one by one, as each
 * answer arrives (engine/run/call-journal.ts): a batch redone after a pause, a crash or a kill
 * takes these answers instead of calling again, so only the calls in flight at that moment are
 * repeated. A row lives only until its batch is stored (the batch's part then holds the answer);
 * what a crash leaves goes with the step run's next full start or the step run itself.
 *
 *   step_runs ─< step_run_calls (PRIMARY KEY step_run_id + call_key)
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('step_run_calls')
    .addColumn('step_run_id', 'text', (c) => c.notNull().references('step_runs.id').onDelete('cascade'))
    // The record's `_id` (the call's unit of work within the step run).
    .addColumn('call_key', 'text', (c) => c.notNull())
    // JSON of the row the step made from the answer (its added columns).
    .addColumn('result', 'text', (c) => c.notNull())
    // 1 when the call counts as a failed record (kept with "keep going on errors").
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
    .addPrimaryKeyConstraint('step_run_calls_pk', ['step_run_id', 'call_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('step_run_calls').execute();
}
