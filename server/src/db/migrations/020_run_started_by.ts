import type { Kysely } from 'kysely';

/**
 * Who or what started a run (issue 11/13, the executions list): `user` when its owner started it
 * (the editor's run buttons, the API), `agent` when an agent did (a conversation's preview run of
 * a step). Both act for the run's owner (`user_id`), so nothing else told them apart.
 *
 * Every run before this migration was started through the API or an agent's preview; which one was
 * not recorded, so they read `user` (the default), as most of them were.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('workflow_runs')
    .addColumn('started_by', 'text', (c) => c.notNull().defaultTo('user'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workflow_runs').dropColumn('started_by').execute();
}
