// Payments for credit packs (migration 012).
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

export type PaymentStatus = 'pending' | 'succeeded' | 'cancelled' | 'expired' | 'refunded' | 'partially_refunded';

/** A checkout for a credit pack (migration 012): Stripe's, or the built-in test checkout's. */
export interface PaymentsTable {
  id: string;
  user_id: string;
  provider: 'stripe' | 'test';
  provider_session_id: string;
  provider_payment_intent: string | null;
  pack_id: string;
  credits_micro: number;
  amount_cents: number;
  currency: string;
  status: PaymentStatus;
  refunded_cents: number;
  checkout_url: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** Where the buyer returns after paying / cancelling (migration 015); NULL: the defaults. */
  success_path: string | null;
  cancel_path: string | null;
}

/** A payment provider's webhook event already handled (migration 012): replays change nothing. */
export interface PaymentEventsTable {
  event_id: string;
  type: string;
  received_at: string;
}
