import type { Db } from '../../db/database';
import type { PaymentStatus, PaymentsTable } from '../../db/schema';

export type PaymentRow = PaymentsTable;

/** The payments and payment_events tables; every read on behalf of a user names its owner. */
export class PaymentsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: PaymentRow): Promise<void> {
    await this.db.insertInto('payments').values(row).execute();
  }

  async list(userId: string, status: PaymentStatus | undefined, limit: number, offset: number): Promise<{ rows: PaymentRow[]; total: number }> {
    let base = this.db.selectFrom('payments').where('user_id', '=', userId);
    if (status) base = base.where('status', '=', status);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  findOwned(id: string, userId: string): Promise<PaymentRow | undefined> {
    return this.db.selectFrom('payments').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  findBySession(sessionId: string): Promise<PaymentRow | undefined> {
    return this.db.selectFrom('payments').selectAll().where('provider_session_id', '=', sessionId).executeTakeFirst();
  }

  findByPaymentIntent(paymentIntent: string): Promise<PaymentRow | undefined> {
    return this.db.selectFrom('payments').selectAll().where('provider_payment_intent', '=', paymentIntent).executeTakeFirst();
  }

  /** Moves a payment from one status to another; false when it was no longer in `from` (someone else moved it first). */
  async transition(
    id: string,
    from: readonly PaymentStatus[],
    to: PaymentStatus,
    fields: Partial<Pick<PaymentRow, 'completed_at' | 'provider_payment_intent'>> = {},
  ): Promise<boolean> {
    const now = new Date().toISOString();
    const result = await this.db
      .updateTable('payments')
      .set({ status: to, updated_at: now, ...fields })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async eventSeen(eventId: string): Promise<boolean> {
    return !!(await this.db.selectFrom('payment_events').select('event_id').where('event_id', '=', eventId).executeTakeFirst());
  }

  /** Records a handled event; false when it already was (a concurrent delivery of the same event). */
  async recordEvent(eventId: string, type: string): Promise<boolean> {
    const inserted = await this.db
      .insertInto('payment_events')
      .values({ event_id: eventId, type, received_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .returning('event_id')
      .executeTakeFirst();
    return !!inserted;
  }

  /**
   * Runs `work` holding the payment's row for writing (a no-op update takes PostgreSQL's row lock;
   * SQLite has one writer), so two refund events of one charge read and move `refunded_cents` one
   * after the other, never both from the same starting point.
   */
  async withPaymentLocked<T>(
    id: string,
    work: (locked: { payment: PaymentRow; db: Db; setRefunded(cents: number, status: PaymentStatus): Promise<void> }) => Promise<T>,
  ): Promise<T | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const touched = await trx.updateTable('payments').set({ updated_at: new Date().toISOString() }).where('id', '=', id).executeTakeFirst();
      if (Number(touched.numUpdatedRows) !== 1) return undefined;
      const payment = await trx.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const setRefunded = async (cents: number, status: PaymentStatus) => {
        await trx.updateTable('payments').set({ refunded_cents: cents, status }).where('id', '=', id).execute();
      };
      return work({ payment, db: trx, setRefunded });
    });
  }
}
