import type { Kysely } from 'kysely';

/**
 * Why a run or step run is paused, failed or cancelled (issue 11, "runs and money you can trust"):
 * by_user | credits | worker_lost | limit | error, NULL in every other state. The text people read
 * comes from the code (by_user, credits) or from `error` (worker_lost, limit, error), in the reader's
 * language. `workflow_runs.pause_reason` (migration 012) stays: the API still answers it and the
 * credit top-up resumes the runs it marks.
 *
 * Rows already paused, failed or cancelled before this migration get the reason their other columns
 * tell: a credit pause from pause_reason, a failure from its error, any other pause or cancel was
 * their owner's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workflow_runs').addColumn('state_reason', 'text').execute();
  await db.schema.alterTable('step_runs').addColumn('state_reason', 'text').execute();
  const d = db as unknown as Kysely<{
    workflow_runs: { id: string; state: string; pause_reason: string | null; state_reason: string | null };
    step_runs: { run_id: string; state: string; state_reason: string | null };
  }>;
  await d.updateTable('workflow_runs').set({ state_reason: 'credits' }).where('state', '=', 'paused').where('pause_reason', '=', 'credits').execute();
  await d
    .updateTable('workflow_runs')
    .set({ state_reason: 'by_user' })
    .where('state', 'in', ['paused', 'cancelled'])
    .where('state_reason', 'is', null)
    .execute();
  await d.updateTable('workflow_runs').set({ state_reason: 'error' }).where('state', '=', 'failed').execute();
  const pausedForCredits = d.selectFrom('workflow_runs').select('id').where('state_reason', '=', 'credits');
  await d.updateTable('step_runs').set({ state_reason: 'credits' }).where('state', '=', 'paused').where('run_id', 'in', pausedForCredits).execute();
  await d.updateTable('step_runs').set({ state_reason: 'by_user' }).where('state', 'in', ['paused', 'cancelled']).where('state_reason', 'is', null).execute();
  await d.updateTable('step_runs').set({ state_reason: 'error' }).where('state', '=', 'failed').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('step_runs').dropColumn('state_reason').execute();
  await db.schema.alterTable('workflow_runs').dropColumn('state_reason').execute();
}
