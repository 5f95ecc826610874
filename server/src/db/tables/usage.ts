// What users use and what it costs them: usage events and the credit ledger (migration 012).
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

export interface UsageEventsTable {
  id: string;
  user_id: string;
  /** e.g. 'storage.upload', 'storage.delete' (quantity in bytes) */
  kind: string;
  quantity: number;
  ref_id: string | null;
  idempotency_key: string;
  created_at: string;
}

export type LedgerKind = 'grant' | 'purchase' | 'usage' | 'refund' | 'adjustment';

/** One append-only credit movement (migration 012); a balance is the sum of a user's rows. */
export interface CreditLedgerTable {
  id: string;
  user_id: string;
  kind: LedgerKind;
  /** Signed micro-credits (1 credit = 1,000,000): positive in, negative out. */
  credits_micro: number;
  /** UNIQUE: the same movement written twice is one row. */
  idempotency_key: string;
  description: string | null;
  /** Usage rows: what was used, how much, the price of one unit in micro-credits. */
  unit: string | null;
  quantity: number | null;
  unit_price_micro: number | null;
  workflow_id: string | null;
  step_id: string | null;
  step_type: string | null;
  run_id: string | null;
  step_run_id: string | null;
  /** Purchase and refund rows: their payment. */
  payment_id: string | null;
  /** Adjustments: the admin who made them. */
  actor_id: string | null;
  created_at: string;
}
