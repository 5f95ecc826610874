import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import type { CreditLedgerTable, LedgerKind } from '../../db/schema';
import { LedgerRepository } from './ledger.repository';

/** Micro-credits in one credit: the ledger stores integers (migration 012). */
export const MICRO = 1_000_000;

export const toCredits = (micro: number): number => micro / MICRO;
export const toMicro = (credits: number): number => Math.round(credits * MICRO);

/**
 * Credits as people read them in a message, rounded as the web app's `formatCredits`
 * (src/features/usage/format.ts) rounds every amount it shows: at most two decimals, and an amount
 * under 0.01 that is not 0 keeps two significant digits, so it never reads as 0.
 */
export function roundCreditsForPeople(micro: number): number {
  const credits = toCredits(micro);
  if (credits !== 0 && Math.abs(credits) < 0.01) return Number(credits.toPrecision(2));
  return Math.round(credits * 100) / 100;
}

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
  private readonly rows: LedgerRepository;

  constructor(db: Db) {
    this.rows = new LedgerRepository(db);
  }

  /** Appends the entries whose keys are new; answers the ones that were (the others were already there). */
  async append(entries: readonly LedgerEntry[]): Promise<LedgerEntry[]> {
    const added: LedgerEntry[] = [];
    const now = new Date().toISOString();
    for (const e of entries) if (await this.rows.insertOnce(row(e, now))) added.push(e);
    return added;
  }

  balanceMicro(userId: string): Promise<number> {
    return this.rows.sumMicro(userId);
  }

  has(idempotencyKey: string): Promise<boolean> {
    return this.rows.hasKey(idempotencyKey);
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
