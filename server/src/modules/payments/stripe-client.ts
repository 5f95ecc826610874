import Stripe from 'stripe';

/** How long we wait for Stripe to create a checkout before answering the buyer 502. */
const STRIPE_TIMEOUT_MS = 20_000;

/**
 * The Stripe SDK's client. `apiBase` (STRIPE_API_BASE) points it at a stand-in through the SDK's
 * own host/port/protocol options, so tests exercise the real client over real HTTP.
 */
export function stripeClient(secretKey: string, apiBase: string | null): Stripe {
  const base = apiBase ? new URL(apiBase) : null;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    timeout: STRIPE_TIMEOUT_MS,
    // The SDK retries with an idempotency key of its own; ours (the payment id) makes that safe too.
    maxNetworkRetries: 1,
    ...(base ? { host: base.hostname, port: base.port || (protocol === 'http' ? 80 : 443), protocol } : {}),
  });
}

/** Stripe's webhook helpers need no client (and no key): signing and verifying are local HMACs. */
export const stripeWebhooks = Stripe.webhooks;

/** The purpose under which the test checkout's webhook secret is derived from the secrets key. */
export const TEST_WEBHOOK_PURPOSE = 'payments:test-webhook-secret';

/** Stripe-shaped (whsec_…), so the same verification path as Stripe's own secrets applies. */
export const testWebhookSecret = (derived: Buffer): string => `whsec_test_${derived.toString('base64url')}`;

export type { Stripe };
