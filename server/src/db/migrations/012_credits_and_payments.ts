import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestampType } from './column-types';

/**
 * Credits and card payments (issue 11). Money is a ledger (ARCHITECTURE.md, decision 9):
 *
 *   users ─< credit_ledger      append-only; a user's balance is SUM(credits_micro) of their rows
 *         ─< payments ─< credit_ledger (purchase, refund rows name their payment)
 *   payment_events              each provider event id once: a replayed webhook changes nothing
 *
 * Amounts are integer micro-credits (1 credit = 1,000,000), so a token priced at 0.0005 credits is
 * exact and a sum never drifts by float rounding. Every row carries an idempotency key (UNIQUE): the
 * same grant, purchase, batch of usage or refund written twice (a retry, a crash redo, a replayed
 * event) is one row. Usage rows also say what was used: quantity, unit, unit price and where
 * (workflow, step, step type, run, step run). No foreign keys to workflows or runs: the ledger
 * outlives them (a deleted workflow's spending still counts).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestampType(dialect);

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // grant | purchase | usage | refund | adjustment
    .addColumn('kind', 'text', (c) => c.notNull())
    // Signed: credits in (grant, purchase, positive adjustment) are positive, usage and refunds negative.
    .addColumn('credits_micro', 'bigint', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    // Usage rows: what was used, how much, at what price (micro-credits per unit).
    .addColumn('unit', 'text')
    .addColumn('quantity', 'bigint')
    .addColumn('unit_price_micro', 'bigint')
    .addColumn('workflow_id', 'text')
    .addColumn('step_id', 'text')
    .addColumn('step_type', 'text')
    .addColumn('run_id', 'text')
    .addColumn('step_run_id', 'text')
    // Purchase and refund rows: the payment behind them. Adjustments: the admin who made them.
    .addColumn('payment_id', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  // The balance sums a user's rows; usage lists and summaries read one user's usage by time.
  await db.schema.createIndex('credit_ledger_user_created').on('credit_ledger').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('credit_ledger_user_kind_created').on('credit_ledger').columns(['user_id', 'kind', 'created_at']).execute();
  await db.schema.createIndex('credit_ledger_run').on('credit_ledger').column('run_id').execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // stripe | test (the built-in test checkout, used when no Stripe key is configured)
    .addColumn('provider', 'text', (c) => c.notNull())
    // The provider's checkout session id (cs_…): what its webhook events name.
    .addColumn('provider_session_id', 'text', (c) => c.notNull().unique())
    .addColumn('provider_payment_intent', 'text')
    .addColumn('pack_id', 'text', (c) => c.notNull())
    .addColumn('credits_micro', 'bigint', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // pending | succeeded | cancelled | expired | refunded | partially_refunded
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('refunded_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('checkout_url', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('completed_at', ts)
    .execute();
  await db.schema.createIndex('payments_user_created').on('payments').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('payments_payment_intent').on('payments').column('provider_payment_intent').execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', ts, (c) => c.notNull())
    .execute();

  // Why a paused run is paused: NULL when someone pressed pause, 'credits' when the balance ran out
  // (such runs resume by themselves once credits arrive).
  await db.schema.alterTable('workflow_runs').addColumn('pause_reason', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workflow_runs').dropColumn('pause_reason').execute();
  await db.schema.dropTable('payment_events').execute();
  await db.schema.dropTable('payments').execute();
  await db.schema.dropTable('credit_ledger').execute();
}
