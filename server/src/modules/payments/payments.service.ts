import { randomBytes, randomUUID } from 'node:crypto';
import type { CreditPack, PaymentsConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { PaymentStatus } from '../../db/schema';
import { conflict, invalid, notFound, rejected, upstreamFailed } from '../../lib/errors';
import type { Log } from '../../lib/logger';
import { Ledger, toCredits, toMicro, type LedgerEntry } from '../usage/ledger';
import { PaymentsRepository, type PaymentRow } from './payments.repository';
import type { CheckoutIn, CheckoutOut, PacksOut, PaymentOut, PaymentsQuery, RedirectOut, SalesMode, TestCheckoutOut } from './payments.schemas';
import { stripeClient, stripeWebhooks, type Stripe } from './stripe-client';

export const DEFAULT_SUCCESS_PATH = '/billing?payment=success';
export const DEFAULT_CANCEL_PATH = '/billing?payment=cancelled';
/**
 * Stripe's own default: a signature older than five minutes is a replay, not a delivery. The same
 * bound holds the other way: one dated further ahead than this (the SDK checks only the past) would
 * stay replayable until then, however far off that is.
 */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The timestamp a Stripe-Signature header is signed with, read the way the SDK reads it (the last
 * `t=`, parseInt), so it is the very number the verified signature covers; null without one.
 */
export function signatureTimestamp(header: string): number | null {
  let timestamp: number | null = null;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') timestamp = parseInt(value ?? '', 10);
  }
  return timestamp !== null && Number.isFinite(timestamp) ? timestamp : null;
}

/** Where credits go: `app.credits` (its append tells paused runs that credits arrived). */
export interface CreditSink {
  append(entries: readonly LedgerEntry[]): Promise<LedgerEntry[]>;
}

export interface PaymentsSettings {
  payments: PaymentsConfig;
  /** Absolute origin of the app: Stripe needs absolute return URLs. */
  publicUrl: string;
  /** STRIPE_WEBHOOK_SECRET, or for the test checkout the one derived from the secrets key; null when nothing is on sale. */
  webhookSecret: string | null;
}

/** What a webhook delivery came to, for the log. */
export type WebhookOutcome = 'handled' | 'duplicate' | 'ignored';

/** The few fields of an event we read, checked before use: a signed event is Stripe's, but its shape is still data. */
interface EventEnvelope {
  id: string;
  type: string;
  object: Record<string, unknown>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Stripe's ids and event types (`evt_…`, `cs_test_…`, `charge.refunded`); anything else (a NUL, which PostgreSQL cannot store) is not one. */
const text = (v: unknown, max = 255): string | null => (typeof v === 'string' && v.length <= max && /^[\w.-]+$/.test(v) ? v : null);
const wholeCents = (v: unknown): number | null => (Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : null);
/** `payment_intent` is an id, or the object when expanded. */
const idOf = (v: unknown): string | null => text(v) ?? (isRecord(v) ? text(v.id) : null);

/**
 * Credit packs bought by card. Stripe mode (STRIPE_SECRET_KEY) makes a Stripe Checkout session;
 * test mode (STRIPE_TEST_CHECKOUT, only without a key) makes a payment the built-in test checkout
 * completes; with neither nothing is on sale (`off`). Either way the credits arrive
 * only through a signed webhook event (the test checkout signs its own with the same helper Stripe
 * documents for tests), handled by `handleWebhook`: one path that is idempotent by construction —
 * a purchase is the ledger row `purchase:<payment id>`, a refund the row of the cumulative refunded
 * amount — so replays and concurrent duplicate deliveries change nothing, and `payment_events`
 * records what was handled.
 */
export class PaymentsService {
  private readonly repo: PaymentsRepository;
  private readonly stripe: Stripe | null;

  constructor(
    db: Db,
    private readonly credits: CreditSink,
    private readonly settings: PaymentsSettings,
    private readonly log: Log,
  ) {
    this.repo = new PaymentsRepository(db);
    const { stripeSecretKey, stripeApiBase } = settings.payments;
    this.stripe = stripeSecretKey ? stripeClient(stripeSecretKey, stripeApiBase) : null;
  }

  /** The test checkout only when asked for: it credits whoever clicks "Pay", for nothing. */
  get mode(): SalesMode {
    return this.stripe ? 'stripe' : this.settings.payments.testCheckout ? 'test' : 'off';
  }

  packs(): PacksOut {
    return { mode: this.mode, items: this.mode === 'off' ? [] : this.settings.payments.packs.map((p) => ({ ...p })) };
  }

  async createCheckout(userId: string, input: CheckoutIn): Promise<CheckoutOut> {
    const mode = this.mode;
    if (mode === 'off') throw conflict('server.payments.notOnSale');
    const pack = this.settings.payments.packs.find((p) => p.id === input.pack_id);
    if (!pack) throw invalid('server.payments.unknownPack', ['body', 'pack_id']);
    const id = randomUUID();
    const successPath = input.success_path ?? DEFAULT_SUCCESS_PATH;
    const cancelPath = input.cancel_path ?? DEFAULT_CANCEL_PATH;
    const { sessionId, url } = this.stripe
      ? await this.createStripeSession(this.stripe, { id, userId, pack, successPath, cancelPath })
      : { sessionId: `cs_test_${randomBytes(24).toString('base64url')}`, url: `/billing/test-checkout/${id}` };
    const now = new Date().toISOString();
    await this.repo.insert({
      id,
      user_id: userId,
      provider: mode,
      provider_session_id: sessionId,
      provider_payment_intent: null,
      pack_id: pack.id,
      credits_micro: toMicro(pack.credits),
      amount_cents: pack.amount_cents,
      currency: pack.currency,
      status: 'pending',
      refunded_cents: 0,
      checkout_url: url,
      created_at: now,
      updated_at: now,
      completed_at: null,
      success_path: input.success_path ?? null,
      cancel_path: input.cancel_path ?? null,
    });
    return { id, checkout_url: url, mode };
  }

  private async createStripeSession(
    stripe: Stripe,
    p: { id: string; userId: string; pack: CreditPack; successPath: string; cancelPath: string },
  ): Promise<{ sessionId: string; url: string }> {
    const metadata = { payment_id: p.id, user_id: p.userId };
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: { currency: p.pack.currency, unit_amount: p.pack.amount_cents, product_data: { name: `${p.pack.name} (${p.pack.credits} credits)` } },
            },
          ],
          success_url: `${this.settings.publicUrl}${p.successPath}`,
          cancel_url: `${this.settings.publicUrl}${p.cancelPath}`,
          client_reference_id: p.userId,
          metadata,
          payment_intent_data: { metadata },
        },
        // A retried create (the SDK's own retry) must not open a second checkout for one payment.
        { idempotencyKey: `checkout:${p.id}` },
      );
    } catch (err) {
      this.log.error({ err, paymentId: p.id }, 'Stripe refused to create a checkout session');
      throw upstreamFailed('server.payments.providerFailed');
    }
    if (!session.url || !text(session.id)) {
      this.log.error({ paymentId: p.id, sessionId: session.id }, 'Stripe answered a checkout session without a URL');
      throw upstreamFailed('server.payments.providerFailed');
    }
    return { sessionId: session.id, url: session.url };
  }

  async list(userId: string, query: PaymentsQuery) {
    const { rows, total } = await this.repo.list(userId, query.status, query.page_size, (query.page - 1) * query.page_size);
    return { items: rows.map((r) => this.toOut(r)), total, page: query.page, page_size: query.page_size };
  }

  async testCheckout(userId: string, id: string): Promise<TestCheckoutOut> {
    const payment = await this.ownTestPayment(userId, id);
    return {
      id: payment.id,
      pack_name: this.packName(payment.pack_id),
      credits: toCredits(payment.credits_micro),
      amount_cents: payment.amount_cents,
      currency: payment.currency,
      status: payment.status,
      test_mode: true,
    };
  }

  /**
   * The test checkout's "Pay": builds the event Stripe would send, signs it with the webhook secret
   * through Stripe's own test helper, and delivers it to the webhook handler, so test mode credits
   * exactly the way a real payment does.
   */
  async completeTestCheckout(userId: string, id: string): Promise<RedirectOut> {
    const payment = await this.ownTestPayment(userId, id);
    if (payment.status !== 'pending') throw conflict('server.payments.notPending');
    const now = Math.floor(Date.now() / 1000);
    const event = {
      id: `evt_test_${randomBytes(18).toString('base64url')}`,
      object: 'event',
      api_version: null,
      created: now,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'checkout.session.completed',
      data: {
        object: {
          id: payment.provider_session_id,
          object: 'checkout.session',
          mode: 'payment',
          status: 'complete',
          payment_status: 'paid',
          amount_total: payment.amount_cents,
          currency: payment.currency,
          client_reference_id: userId,
          metadata: { payment_id: payment.id, user_id: userId },
          payment_intent: `pi_test_${randomBytes(18).toString('base64url')}`,
          created: now,
          livemode: false,
        },
      },
    };
    const payload = JSON.stringify(event, null, 2);
    const header = stripeWebhooks.generateTestHeaderString({ payload, secret: this.webhookSecret() });
    await this.handleWebhook(Buffer.from(payload, 'utf8'), header);
    return { redirect_path: payment.success_path ?? DEFAULT_SUCCESS_PATH };
  }

  async cancelTestCheckout(userId: string, id: string): Promise<RedirectOut> {
    const payment = await this.ownTestPayment(userId, id);
    if (!(await this.repo.transition(payment.id, ['pending'], 'cancelled'))) throw conflict('server.payments.notPending');
    return { redirect_path: payment.cancel_path ?? DEFAULT_CANCEL_PATH };
  }

  /**
   * A webhook delivery: the raw body as it came (the signature covers its exact bytes) and the
   * Stripe-Signature header. A bad signature, or one dated more than the tolerance before or after
   * now, is refused (400) before anything is read.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    if (!signature || signature.length > 2000) {
      this.log.warn({ length: signature?.length ?? 0 }, 'payment webhook refused: no usable Stripe-Signature');
      throw rejected('server.payments.badSignature');
    }
    const secret = this.settings.webhookSecret;
    if (!secret) {
      // Nothing is on sale: no event is ours, however it is signed.
      this.log.warn({}, 'payment webhook refused: no payments configured');
      throw rejected('server.payments.badSignature');
    }
    let parsed: unknown;
    try {
      parsed = stripeWebhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
      const signedAt = signatureTimestamp(signature);
      if (signedAt === null || signedAt - Math.floor(Date.now() / 1000) > WEBHOOK_TOLERANCE_SECONDS)
        throw new Error('Timestamp in the future, beyond the tolerance');
    } catch (err) {
      // Worth a look when it repeats: a rotated secret not yet configured, or someone probing.
      this.log.warn({ reason: (err as Error).message }, 'payment webhook refused: signature');
      throw rejected('server.payments.badSignature');
    }
    const event = envelopeOf(parsed);
    if (!event) throw rejected('server.payments.badEvent');
    if (await this.repo.eventSeen(event.id)) return 'duplicate';

    let outcome: WebhookOutcome;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        outcome = await this.sessionCompleted(event);
        break;
      case 'checkout.session.expired':
        outcome = await this.sessionEnded(event, 'expired');
        break;
      case 'checkout.session.async_payment_failed':
        outcome = await this.sessionEnded(event, 'cancelled');
        break;
      case 'charge.refunded':
        outcome = await this.chargeRefunded(event);
        break;
      default:
        outcome = 'ignored';
    }
    // Last: an event whose effects were cut short by a crash is handled again on Stripe's retry,
    // and its effects are idempotent, so handling it twice is handling it once.
    const first = await this.repo.recordEvent(event.id, event.type);
    this.log.info({ eventId: event.id, type: event.type, outcome: first ? outcome : 'duplicate' }, 'payment webhook');
    return first ? outcome : 'duplicate';
  }

  private async sessionCompleted(event: EventEnvelope): Promise<WebhookOutcome> {
    const payment = await this.paymentOfSession(event);
    if (!payment) return 'ignored';
    const paymentIntent = idOf(event.object.payment_intent);
    const paymentStatus = event.object.payment_status;
    // Bank debits and the like complete the session unpaid; the money (and the credits) come with
    // checkout.session.async_payment_succeeded.
    if (paymentStatus !== 'paid' && paymentStatus !== 'no_payment_required') {
      if (paymentIntent) await this.repo.transition(payment.id, ['pending'], 'pending', { provider_payment_intent: paymentIntent });
      return 'ignored';
    }
    await this.credits.append([
      {
        userId: payment.user_id,
        kind: 'purchase',
        creditsMicro: payment.credits_micro,
        idempotencyKey: `purchase:${payment.id}`,
        description: this.packName(payment.pack_id),
        paymentId: payment.id,
      },
    ]);
    await this.repo.transition(payment.id, ['pending', 'cancelled', 'expired'], 'succeeded', {
      completed_at: new Date().toISOString(),
      ...(paymentIntent ? { provider_payment_intent: paymentIntent } : {}),
    });
    return 'handled';
  }

  private async sessionEnded(event: EventEnvelope, status: PaymentStatus): Promise<WebhookOutcome> {
    const payment = await this.paymentOfSession(event);
    if (!payment) return 'ignored';
    return (await this.repo.transition(payment.id, ['pending'], status)) ? 'handled' : 'ignored';
  }

  /**
   * Stripe sends the charge with its cumulative `amount_refunded`. The credits taken back are the
   * same share of the pack's credits; each refund debits what the new total adds to the old one,
   * under the key of the new total, with the payment's row held: a replay, a duplicate or an older
   * event arriving late finds the total already there and debits nothing.
   */
  private async chargeRefunded(event: EventEnvelope): Promise<WebhookOutcome> {
    const paymentIntent = idOf(event.object.payment_intent);
    const amount = wholeCents(event.object.amount);
    const amountRefunded = wholeCents(event.object.amount_refunded);
    if (!paymentIntent || !amount || amountRefunded === null) return 'ignored';
    const found = await this.repo.findByPaymentIntent(paymentIntent);
    if (!found) return 'ignored';
    const outcome = await this.repo.withPaymentLocked(found.id, async ({ payment, db, setRefunded }) => {
      const refundedCents = Math.round((payment.amount_cents * Math.min(amountRefunded, amount)) / amount);
      if (refundedCents <= payment.refunded_cents) return 'ignored' as const;
      const creditsFor = (cents: number) => Math.round((payment.credits_micro * cents) / payment.amount_cents);
      // In the payment's transaction: the debit and the new total are one change. (A debit raises no
      // balance, so app.credits has no one to tell.)
      await new Ledger(db).append([
        {
          userId: payment.user_id,
          kind: 'refund',
          creditsMicro: -(creditsFor(refundedCents) - creditsFor(payment.refunded_cents)),
          idempotencyKey: `refund:${payment.id}:${refundedCents}`,
          description: this.packName(payment.pack_id),
          paymentId: payment.id,
        },
      ]);
      await setRefunded(refundedCents, refundedCents >= payment.amount_cents ? 'refunded' : 'partially_refunded');
      return 'handled' as const;
    });
    return outcome ?? 'ignored';
  }

  /** Our payment behind a checkout session event; sessions we did not make (other products on the account) are none of ours. */
  private async paymentOfSession(event: EventEnvelope): Promise<PaymentRow | undefined> {
    const sessionId = text(event.object.id);
    return sessionId ? this.repo.findBySession(sessionId) : undefined;
  }

  /** Test checkout calls reach only the caller's own test-mode payments, and only in test mode. */
  private async ownTestPayment(userId: string, id: string): Promise<PaymentRow> {
    const payment = this.mode === 'test' ? await this.repo.findOwned(id, userId) : undefined;
    if (!payment || payment.provider !== 'test') throw notFound('server.payments.notFound');
    return payment;
  }

  /** Set whenever the test checkout is (payments.routes.ts); a missing one is a wiring mistake, not a request's. */
  private webhookSecret(): string {
    if (!this.settings.webhookSecret) throw new Error('the test checkout needs a webhook secret');
    return this.settings.webhookSecret;
  }

  /** The pack's name as configured now; a pack since removed from CREDIT_PACKS shows its id. */
  private packName(packId: string): string {
    return this.settings.payments.packs.find((p) => p.id === packId)?.name ?? packId;
  }

  private toOut(r: PaymentRow): PaymentOut {
    return {
      id: r.id,
      pack_id: r.pack_id,
      pack_name: this.packName(r.pack_id),
      credits: toCredits(r.credits_micro),
      amount_cents: r.amount_cents,
      currency: r.currency,
      status: r.status,
      provider: r.provider,
      refunded_cents: r.refunded_cents,
      created_at: r.created_at,
      completed_at: r.completed_at,
    };
  }
}

function envelopeOf(value: unknown): EventEnvelope | null {
  if (!isRecord(value) || !isRecord(value.data) || !isRecord(value.data.object)) return null;
  const id = text(value.id);
  const type = text(value.type, 100);
  return id && type ? { id, type, object: value.data.object } : null;
}
