import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { CreditLedgerTable } from '../../db/schema';

/** The `credit_ledger` rows (migration 012): only ever inserted, each idempotency key once. */
export class LedgerRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the row unless its idempotency key is there already; true when it was new. */
  async insertOnce(row: CreditLedgerTable): Promise<boolean> {
    const inserted = await this.db
      .insertInto('credit_ledger')
      .values(row)
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    return !!inserted;
  }

  async sumMicro(userId: string): Promise<number> {
    const { total } = await this.db
      .selectFrom('credit_ledger')
      .select(sql<number | string | null>`sum(credits_micro)`.as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(total ?? 0);
  }

  async hasKey(idempotencyKey: string): Promise<boolean> {
    return !!(await this.db.selectFrom('credit_ledger').select('id').where('idempotency_key', '=', idempotencyKey).executeTakeFirst());
  }
}
