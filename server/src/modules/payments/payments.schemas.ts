import { Type, type Static } from '@sinclair/typebox';
import { Id, Page, pageFields, StringEnum } from '../../http/common.schemas';

// The shapes of /api/v1/payments (contract: issue 11, "Payments"). Money is in the currency's
// smallest unit (cents); credits are JSON numbers (decimals allowed).

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'cancelled', 'expired', 'refunded', 'partially_refunded'] as const;
export const PaymentMode = StringEnum(['stripe', 'test']);
export type PaymentMode = Static<typeof PaymentMode>;
/** How credits are bought here: a checkout's mode, or `off` when nothing is on sale (no Stripe key, no test checkout). */
export const SalesMode = StringEnum(['stripe', 'test', 'off']);
export type SalesMode = Static<typeof SalesMode>;

export const CreditPackOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  credits: Type.Number(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
});

export const PacksOut = Type.Object({ mode: SalesMode, items: Type.Array(CreditPackOut) });
export type PacksOut = Static<typeof PacksOut>;

/**
 * A path inside the app to come back to: starts with one '/', so `//evil.example` (a
 * protocol-relative URL) and `/\evil.example` (which browsers read the same) cannot send a buyer
 * elsewhere; no spaces or control characters.
 */
export const AppPath = Type.String({ minLength: 1, maxLength: 500, pattern: '^/(?![/\\\\])[^\\s\\\\]*$' });

export const CheckoutIn = Type.Object(
  {
    pack_id: Type.String({ minLength: 1, maxLength: 40 }),
    success_path: Type.Optional(AppPath),
    cancel_path: Type.Optional(AppPath),
  },
  { additionalProperties: false },
);
export type CheckoutIn = Static<typeof CheckoutIn>;

export const CheckoutOut = Type.Object({ id: Type.String(), checkout_url: Type.String(), mode: PaymentMode });
export type CheckoutOut = Static<typeof CheckoutOut>;

export const PaymentOut = Type.Object({
  id: Type.String(),
  pack_id: Type.String(),
  pack_name: Type.String(),
  credits: Type.Number(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  status: StringEnum([...PAYMENT_STATUSES]),
  provider: PaymentMode,
  refunded_cents: Type.Integer(),
  created_at: Type.String(),
  completed_at: Type.Union([Type.String(), Type.Null()]),
});
export type PaymentOut = Static<typeof PaymentOut>;

export const PaymentsQuery = Type.Object(
  { ...pageFields({ size: 20, maxSize: 100 }), status: Type.Optional(StringEnum([...PAYMENT_STATUSES])) },
  { additionalProperties: false },
);
export type PaymentsQuery = Static<typeof PaymentsQuery>;
export const PaymentsPage = Page(PaymentOut);

export const PaymentParams = Type.Object({ id: Id });

export const TestCheckoutOut = Type.Object({
  id: Type.String(),
  pack_name: Type.String(),
  credits: Type.Number(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  status: StringEnum([...PAYMENT_STATUSES]),
  test_mode: Type.Literal(true),
});
export type TestCheckoutOut = Static<typeof TestCheckoutOut>;

export const RedirectOut = Type.Object({ redirect_path: Type.String() });
export type RedirectOut = Static<typeof RedirectOut>;

export const WebhookOut = Type.Object({ received: Type.Literal(true) });
