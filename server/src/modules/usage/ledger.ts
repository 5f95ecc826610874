import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { CreditLedgerTable, LedgerKind } from '../../db/schema';

/** Micro-credits in one credit: the ledger stores integers (migration 012). */
export const MICRO = 1_000_000;

export const toCredits = (micro: number): number => micro / MICRO;
export const toMicro = (credits: number): number => Math.round(credits * MICRO);

/** One credit movement to append. `creditsMicro` is signed: positive in, negative out. */
export interface LedgerEntry {
  userId: string;
  kind: LedgerKind;
  creditsMicro: number;
  /** The same movement appended twice (a retry, a crash redo, a replayed webhook) is kept once. */
  idempotencyKey: string;
  description?: string | null;
  unit?: string | null;
  quantity?: number | null;
  unitPriceMicro?: number | null;
  workflowId?: string | null;
  stepId?: string | null;
  stepType?: string | null;
  runId?: string | null;
  stepRunId?: string | null;
  paymentId?: string | null;
  actorId?: string | null;
}

/**
 * The credit ledger (ARCHITECTURE.md, decision 9): rows are only ever added, a balance is the sum of
 * a user's rows, and each row's idempotency key is UNIQUE, so concurrent writers of the same
 * movement leave one row and the balance cannot drift from what the rows say.
 */
export class Ledger {
  constructor(private readonly db: Db) {}

  /** Appends the entries whose keys are new; answers the ones that were (the others were already there). */
  async append(entries: readonly LedgerEntry[]): Promise<LedgerEntry[]> {
    const added: LedgerEntry[] = [];
    const now = new Date().toISOString();
    for (const e of entries) {
      const inserted = await this.db
        .insertInto('credit_ledger')
        .values(row(e, now))
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) added.push(e);
    }
    return added;
  }

  async balanceMicro(userId: string): Promise<number> {
    const { total } = await this.db
      .selectFrom('credit_ledger')
      .select(sql<number | string | null>`sum(credits_micro)`.as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(total ?? 0);
  }

  async has(idempotencyKey: string): Promise<boolean> {
    return !!(await this.db.selectFrom('credit_ledger').select('id').where('idempotency_key', '=', idempotencyKey).executeTakeFirst());
  }
}

function row(e: LedgerEntry, now: string): CreditLedgerTable {
  if (!Number.isSafeInteger(e.creditsMicro)) throw new Error(`A ledger amount must be a whole number of micro-credits, got ${e.creditsMicro}`);
  return {
    id: randomUUID(),
    user_id: e.userId,
    kind: e.kind,
    credits_micro: e.creditsMicro,
    idempotency_key: e.idempotencyKey.slice(0, 500),
    description: e.description ?? null,
    unit: e.unit ?? null,
    quantity: e.quantity ?? null,
    unit_price_micro: e.unitPriceMicro ?? null,
    workflow_id: e.workflowId ?? null,
    step_id: e.stepId ?? null,
    step_type: e.stepType ?? null,
    run_id: e.runId ?? null,
    step_run_id: e.stepRunId ?? null,
    payment_id: e.paymentId ?? null,
    actor_id: e.actorId ?? null,
    created_at: now,
  };
}
