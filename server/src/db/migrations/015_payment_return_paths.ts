import type { Kysely } from 'kysely';

/**
 * Where a buyer returns after a checkout (paths inside the app, checked when the checkout is made):
 * Stripe gets them as absolute URLs, and the built-in test checkout answers them after it completes
 * or cancels, so it must remember them. NULL: the billing page's defaults.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('success_path', 'text').execute();
  await db.schema.alterTable('payments').addColumn('cancel_path', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('cancel_path').execute();
  await db.schema.alterTable('payments').dropColumn('success_path').execute();
}
