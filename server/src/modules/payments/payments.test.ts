import Stripe from 'stripe';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { startStripeServer, type StripeEvent, type StripeServer } from '../../test/stripe-server';
import { MICRO } from '../usage/ledger';
import { WEBHOOK_TOLERANCE_SECONDS } from './payments.service';
import { TEST_WEBHOOK_PURPOSE, testWebhookSecret } from './stripe-client';

const API = '/api/v1/payments';

/** The bytes Stripe would send and their Stripe-Signature, made with the SDK's own test helper. */
function signed(event: object, secret: string, timestamp?: number) {
  const payload = JSON.stringify(event, null, 2);
  return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) }) };
}

function deliver(app: FastifyInstance, delivery: { payload: string; header?: string }, contentType = 'application/json; charset=utf-8') {
  return app.inject({
    method: 'POST',
    url: `${API}/webhook`,
    headers: { 'content-type': contentType, ...(delivery.header ? { 'stripe-signature': delivery.header } : {}) },
    payload: delivery.payload,
  });
}

// Accounts start with no credits here, so a balance is exactly what the payments added.
const NO_SIGNUP_GRANT = { BILLING_SIGNUP_CREDITS: '0' };
const credits = async (app: FastifyInstance, userId: string) => (await app.credits.balanceMicro(userId)) / MICRO;

async function checkout(app: FastifyInstance, auth: Record<string, string>, body: Record<string, unknown> = { pack_id: 'starter' }) {
  const res = await app.inject({ method: 'POST', url: `${API}/create-checkout-session`, headers: auth, payload: body });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: string; checkout_url: string; mode: string };
}

async function paymentRow(app: FastifyInstance, id: string) {
  return app.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A checkout.session event for one of our test-mode payments, as Stripe would shape it. */
function sessionEvent(type: string, session: { id: string; amount: number; paymentIntent?: string }, eventId = `evt_${Math.random().toString(36).slice(2)}`) {
  return {
    id: eventId,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        mode: 'payment',
        status: type === 'checkout.session.expired' ? 'expired' : 'complete',
        payment_status: type === 'checkout.session.expired' ? 'unpaid' : 'paid',
        amount_total: session.amount,
        currency: 'usd',
        payment_intent: session.paymentIntent ?? null,
      },
    },
  };
}

describe('payments in test mode (no Stripe key, STRIPE_TEST_CHECKOUT=true)', () => {
  let t: TestApp;
  let secret: string;
  beforeAll(async () => {
    t = await createTestApp({ ...NO_SIGNUP_GRANT, STRIPE_TEST_CHECKOUT: 'true' });
    secret = testWebhookSecret(t.app.secrets.derive(TEST_WEBHOOK_PURPOSE));
  });
  afterAll(() => t.close());

  it('lists the packs and says checkout is the test checkout', async () => {
    const { auth } = await signedInUser(t.app);
    const res = await t.app.inject({ url: `${API}/packs`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      mode: 'test',
      items: [
        { id: 'starter', name: 'Starter', credits: 500, amount_cents: 500, currency: 'usd' },
        { id: 'team', name: 'Team', credits: 2500, amount_cents: 2000, currency: 'usd' },
        { id: 'scale', name: 'Scale', credits: 10000, amount_cents: 7000, currency: 'usd' },
      ],
    });
  });

  it('completes a test checkout through a signed webhook: credits once, then refuses a second payment', async () => {
    const { auth, user } = await signedInUser(t.app);
    const started = await checkout(t.app, auth, { pack_id: 'team' });
    expect(started).toEqual({ id: expect.any(String), checkout_url: `/billing/test-checkout/${started.id}`, mode: 'test' });

    const page = await t.app.inject({ url: `${API}/test-checkout/${started.id}`, headers: auth });
    expect(page.json()).toEqual({ id: started.id, pack_name: 'Team', credits: 2500, amount_cents: 2000, currency: 'usd', status: 'pending', test_mode: true });

    const done = await t.app.inject({ method: 'POST', url: `${API}/test-checkout/${started.id}/complete`, headers: auth });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ redirect_path: '/billing?payment=success' });
    expect(await credits(t.app, user.id)).toBe(2500);

    const again = await t.app.inject({ method: 'POST', url: `${API}/test-checkout/${started.id}/complete`, headers: auth });
    expect(again.statusCode).toBe(409);
    expect(typeof again.json().detail).toBe('string');
    expect(await credits(t.app, user.id)).toBe(2500);

    const rows = await t.app.db.selectFrom('credit_ledger').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toEqual([
      expect.objectContaining({ kind: 'purchase', credits_micro: 2500 * MICRO, idempotency_key: `purchase:${started.id}`, payment_id: started.id }),
    ]);
    const events = await t.app.db.selectFrom('payment_events').selectAll().where('type', '=', 'checkout.session.completed').execute();
    expect(events.some((e) => e.event_id.startsWith('evt_test_'))).toBe(true);

    const list = await t.app.inject({ url: `${API}/`, headers: auth });
    expect(list.json().items).toEqual([
      expect.objectContaining({
        id: started.id,
        pack_id: 'team',
        pack_name: 'Team',
        status: 'succeeded',
        provider: 'test',
        credits: 2500,
        refunded_cents: 0,
        completed_at: expect.any(String),
      }),
    ]);
  });

  it('cancels a test checkout back to the path the app asked for, crediting nothing', async () => {
    const { auth, user } = await signedInUser(t.app);
    const started = await checkout(t.app, auth, { pack_id: 'starter', success_path: '/cn/billing?paid=1', cancel_path: '/cn/billing?cancelled=1' });
    const cancelled = await t.app.inject({ method: 'POST', url: `${API}/test-checkout/${started.id}/cancel`, headers: auth });
    expect(cancelled.json()).toEqual({ redirect_path: '/cn/billing?cancelled=1' });
    expect((await paymentRow(t.app, started.id)).status).toBe('cancelled');
    expect((await t.app.inject({ method: 'POST', url: `${API}/test-checkout/${started.id}/complete`, headers: auth })).statusCode).toBe(409);
    expect(await credits(t.app, user.id)).toBe(0);

    const other = await checkout(t.app, auth, { pack_id: 'starter', success_path: '/cn/billing?paid=1' });
    expect((await t.app.inject({ method: 'POST', url: `${API}/test-checkout/${other.id}/complete`, headers: auth })).json()).toEqual({
      redirect_path: '/cn/billing?paid=1',
    });
  });

  it("answers another user's payment 404, exactly like a missing one", async () => {
    const owner = await signedInUser(t.app);
    const stranger = await signedInUser(t.app);
    const started = await checkout(t.app, owner.auth);
    for (const [method, url] of [
      ['GET', `${API}/test-checkout/${started.id}`],
      ['POST', `${API}/test-checkout/${started.id}/complete`],
      ['POST', `${API}/test-checkout/${started.id}/cancel`],
      ['GET', `${API}/test-checkout/00000000-0000-0000-0000-000000000000`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: stranger.auth });
      expect([url, res.statusCode, res.json()]).toEqual([url, 404, { detail: 'Payment not found.' }]);
    }
    expect((await t.app.inject({ url: `${API}/`, headers: stranger.auth })).json().total).toBe(0);
    expect((await paymentRow(t.app, started.id)).status).toBe('pending');
    expect(await credits(t.app, owner.user.id)).toBe(0);
  });

  it('refuses hostile checkout bodies with 422, open redirects included', async () => {
    const { auth } = await signedInUser(t.app);
    const cases: [Record<string, unknown>, string][] = [
      [{ pack_id: 'no-such-pack' }, 'pack_id'],
      [{}, 'pack_id'],
      [{ pack_id: 'x'.repeat(41) }, 'pack_id'],
      [{ pack_id: 42 }, 'pack_id'],
      [{ pack_id: 'starter', success_path: '//evil.example/' }, 'success_path'],
      [{ pack_id: 'starter', success_path: 'https://evil.example/' }, 'success_path'],
      [{ pack_id: 'starter', cancel_path: '/\\evil.example' }, 'cancel_path'],
      [{ pack_id: 'starter', cancel_path: '/billing\nLocation: x' }, 'cancel_path'],
      [{ pack_id: 'starter', success_path: `/${'a'.repeat(500)}` }, 'success_path'],
      [{ pack_id: 'starter', amount_cents: 1 }, 'amount_cents'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.app.inject({ method: 'POST', url: `${API}/create-checkout-session`, headers: auth, payload });
      expect([JSON.stringify(payload).slice(0, 60), res.statusCode]).toEqual([JSON.stringify(payload).slice(0, 60), 422]);
      expect(res.json().errors.map((e: { loc: string[] }) => e.loc.join('.'))).toContain(`body.${field}`);
    }
    expect((await t.app.inject({ url: `${API}/`, headers: auth })).json().total).toBe(0);
  });

  it('limits how many checkouts one user may start in a while (429 {detail})', async () => {
    const { auth } = await signedInUser(t.app);
    for (let i = 0; i < 30; i++) await checkout(t.app, auth);
    const res = await t.app.inject({ method: 'POST', url: `${API}/create-checkout-session`, headers: auth, payload: { pack_id: 'starter' } });
    expect(res.statusCode).toBe(429);
    expect(typeof res.json().detail).toBe('string');
    // Someone else is not held back by it.
    await checkout(t.app, (await signedInUser(t.app)).auth);
  });

  it('pages the payments list and filters it by status', async () => {
    const { auth } = await signedInUser(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await checkout(t.app, auth)).id);
    await t.app.inject({ method: 'POST', url: `${API}/test-checkout/${ids[0]}/cancel`, headers: auth });

    const first = (await t.app.inject({ url: `${API}/?page=1&page_size=2`, headers: auth })).json();
    expect({ total: first.total, page: first.page, page_size: first.page_size, n: first.items.length }).toEqual({ total: 5, page: 1, page_size: 2, n: 2 });
    const last = (await t.app.inject({ url: `${API}?page=3&page_size=2`, headers: auth })).json();
    expect(last.items).toHaveLength(1);
    const seen = [...first.items, ...(await t.app.inject({ url: `${API}/?page=2&page_size=2`, headers: auth })).json().items, ...last.items].map(
      (p: { id: string }) => p.id,
    );
    expect(new Set(seen)).toEqual(new Set(ids));

    const cancelled = (await t.app.inject({ url: `${API}/?status=cancelled`, headers: auth })).json();
    expect(cancelled.items.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    for (const query of ['page_size=101', 'page=0', 'status=paid', 'page=1e309', 'sort=amount']) {
      expect([query, (await t.app.inject({ url: `${API}/?${query}`, headers: auth })).statusCode]).toEqual([query, 422]);
    }
  });

  describe('the webhook', () => {
    async function pendingPayment(packId = 'starter') {
      const owner = await signedInUser(t.app);
      const started = await checkout(t.app, owner.auth, { pack_id: packId });
      const row = await paymentRow(t.app, started.id);
      return {
        ...owner,
        paymentId: started.id,
        session: { id: row.provider_session_id, amount: row.amount_cents, paymentIntent: `pi_${started.id.slice(0, 8)}` },
      };
    }

    it('credits an event signed with the SDK test helper once, however often it is replayed', async () => {
      const p = await pendingPayment();
      const delivery = signed(sessionEvent('checkout.session.completed', p.session), secret);
      const res = await deliver(t.app, delivery);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ received: true });
      for (let i = 0; i < 3; i++) expect((await deliver(t.app, delivery)).statusCode).toBe(200);
      // The same payment under another event id (Stripe's async_payment_succeeded after completed) adds nothing either.
      expect((await deliver(t.app, signed(sessionEvent('checkout.session.async_payment_succeeded', p.session), secret))).statusCode).toBe(200);
      expect(await credits(t.app, p.user.id)).toBe(500);
      expect(await paymentRow(t.app, p.paymentId)).toMatchObject({ status: 'succeeded', provider_payment_intent: p.session.paymentIntent });

      // A crash after crediting but before the event was recorded: Stripe's retry finds the credit there.
      await t.app.db.deleteFrom('payment_events').where('event_id', '=', JSON.parse(delivery.payload).id).execute();
      expect((await deliver(t.app, delivery)).statusCode).toBe(200);
      expect(await credits(t.app, p.user.id)).toBe(500);
    });

    it('credits concurrent duplicate deliveries once', async () => {
      const p = await pendingPayment('scale');
      const delivery = signed(sessionEvent('checkout.session.completed', p.session), secret);
      const answers = await Promise.all(Array.from({ length: 8 }, () => deliver(t.app, delivery)));
      expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
      expect(await credits(t.app, p.user.id)).toBe(10000);
      const purchases = await t.app.db.selectFrom('credit_ledger').select('id').where('payment_id', '=', p.paymentId).execute();
      expect(purchases).toHaveLength(1);
    });

    it('refuses a forged or stale signature with 400 {detail}, crediting nothing', async () => {
      const p = await pendingPayment();
      const event = sessionEvent('checkout.session.completed', p.session);
      const good = signed(event, secret);
      const deliveries = [
        signed(event, 'whsec_someone_else'),
        { payload: good.payload.replace('"amount_total": 500', '"amount_total": 5'), header: good.header },
        signed(event, secret, Math.floor(Date.now() / 1000) - 301),
        { payload: good.payload },
        { payload: good.payload, header: 't=1,v1=deadbeef' },
        { payload: good.payload, header: 'x'.repeat(5000) },
      ];
      for (const delivery of deliveries) {
        const res = await deliver(t.app, delivery);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ detail: 'The webhook signature is missing, wrong, or dated too far from now.' });
      }
      expect(await credits(t.app, p.user.id)).toBe(0);
      expect((await paymentRow(t.app, p.paymentId)).status).toBe('pending');
      expect(await t.app.db.selectFrom('payment_events').select('event_id').where('event_id', '=', event.id).executeTakeFirst()).toBeUndefined();
    });

    it('refuses a signature dated beyond the tolerance in the future, and takes one within it (clock skew)', async () => {
      const p = await pendingPayment();
      const event = sessionEvent('checkout.session.completed', p.session);
      const now = Math.floor(Date.now() / 1000);
      // Signed now for later: replayable for as long as it is "in the future", plus the tolerance.
      const future = await deliver(t.app, signed(event, secret, now + WEBHOOK_TOLERANCE_SECONDS + 60));
      expect(future.statusCode).toBe(400);
      expect(future.json()).toEqual({ detail: 'The webhook signature is missing, wrong, or dated too far from now.' });
      expect(await credits(t.app, p.user.id)).toBe(0);
      // A clock a minute ahead of ours is a clock, not a replay.
      expect((await deliver(t.app, signed(event, secret, now + 60))).statusCode).toBe(200);
      expect(await credits(t.app, p.user.id)).toBe(500);
    });

    it('answers garbage 400, never 500', async () => {
      for (const delivery of [
        { payload: '' },
        signed({ not: 'an event' }, secret),
        { payload: '{"broken"', header: Stripe.webhooks.generateTestHeaderString({ payload: '{"broken"', secret }) },
        signed({ id: 'evt_1', type: 'checkout.session.completed', data: { object: 'no' } }, secret),
        signed({ id: 'evt_\u0000', type: 'checkout.session.completed', data: { object: {} } }, secret),
      ]) {
        const res = await deliver(t.app, delivery);
        expect(res.statusCode).toBe(400);
        expect(typeof res.json().detail).toBe('string');
      }
      const octets = await deliver(t.app, { payload: '\u0000\u00ff' }, 'application/octet-stream');
      expect(octets.statusCode).toBe(400);
    });

    it('takes back credits in proportion to what is refunded, once per refunded total', async () => {
      const p = await pendingPayment('team');
      await deliver(t.app, signed(sessionEvent('checkout.session.completed', p.session), secret));
      expect(await credits(t.app, p.user.id)).toBe(2500);
      const charge = (amountRefunded: number) => ({
        id: `evt_${Math.random().toString(36).slice(2)}`,
        object: 'event',
        type: 'charge.refunded',
        data: {
          object: { id: 'ch_1', object: 'charge', amount: 2000, amount_refunded: amountRefunded, payment_intent: p.session.paymentIntent, currency: 'usd' },
        },
      });

      const half = signed(charge(500), secret);
      expect((await deliver(t.app, half)).statusCode).toBe(200);
      await deliver(t.app, half);
      expect(await credits(t.app, p.user.id)).toBe(1875);
      expect(await paymentRow(t.app, p.paymentId)).toMatchObject({ status: 'partially_refunded', refunded_cents: 500 });

      await Promise.all([deliver(t.app, signed(charge(2000), secret)), deliver(t.app, signed(charge(2000), secret))]);
      // An older event that arrives late finds a larger total already taken back.
      await deliver(t.app, signed(charge(500), secret));
      expect(await credits(t.app, p.user.id)).toBe(0);
      expect(await paymentRow(t.app, p.paymentId)).toMatchObject({ status: 'refunded', refunded_cents: 2000 });
      const refunds = await t.app.db
        .selectFrom('credit_ledger')
        .select(['kind', 'credits_micro'])
        .where('payment_id', '=', p.paymentId)
        .where('kind', '=', 'refund')
        .execute();
      expect(refunds.map((r) => r.credits_micro / MICRO).sort()).toEqual([-1875, -625]);

      const list = (await t.app.inject({ url: `${API}/`, headers: p.auth })).json();
      expect(list.items[0]).toMatchObject({ status: 'refunded', refunded_cents: 2000 });
    });

    it('marks an expired session expired, and ignores events it does not handle or sessions it did not make', async () => {
      const p = await pendingPayment();
      expect((await deliver(t.app, signed(sessionEvent('checkout.session.expired', p.session), secret))).statusCode).toBe(200);
      expect((await paymentRow(t.app, p.paymentId)).status).toBe('expired');

      const unknown = { id: 'evt_unknown_type', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } };
      expect((await deliver(t.app, signed(unknown, secret))).json()).toEqual({ received: true });
      expect(await t.app.db.selectFrom('payment_events').select('type').where('event_id', '=', 'evt_unknown_type').executeTakeFirst()).toEqual({
        type: 'customer.created',
      });

      const foreign = sessionEvent('checkout.session.completed', { id: 'cs_live_not_ours', amount: 500 });
      expect((await deliver(t.app, signed(foreign, secret))).statusCode).toBe(200);
      const nul = sessionEvent('checkout.session.completed', { id: 'cs_\u0000', amount: 500, paymentIntent: 'pi_\u0000' });
      expect((await deliver(t.app, signed(nul, secret))).statusCode).toBe(200);
      expect(await credits(t.app, p.user.id)).toBe(0);
    });

    it('is verified with the same test secret by every process of the install', async () => {
      const p = await pendingPayment();
      const second = await buildApp(t.appOptions);
      try {
        const res = await deliver(second, signed(sessionEvent('checkout.session.completed', p.session), secret));
        expect(res.statusCode).toBe(200);
      } finally {
        await second.close();
      }
      expect(await credits(t.app, p.user.id)).toBe(500);
    });
  });
});

describe('payments in Stripe mode, against a Stripe stand-in', () => {
  let stripe: StripeServer;
  let t: TestApp;
  beforeAll(async () => {
    stripe = await startStripeServer();
    t = await createTestApp({ ...NO_SIGNUP_GRANT, ...stripe.env, PUBLIC_URL: 'https://stepwise.example' });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const deliverEvent = (event: StripeEvent) => deliver(t.app, signed(event, stripe.webhookSecret));

  it('creates a Checkout Session with the SDK and sends the buyer to its URL', async () => {
    const { auth, user } = await signedInUser(t.app);
    expect((await t.app.inject({ url: `${API}/packs`, headers: auth })).json().mode).toBe('stripe');
    const before = stripe.requests.length;
    const started = await checkout(t.app, auth, { pack_id: 'starter', success_path: '/billing?payment=success', cancel_path: '/cn/billing' });

    const [sent] = stripe.requests.slice(before);
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      authorization: `Bearer ${stripe.secretKey}`,
      idempotencyKey: `checkout:${started.id}`,
    });
    expect(sent.body).toMatchObject({
      mode: 'payment',
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '500', product_data: { name: 'Starter (500 credits)' } } }],
      success_url: 'https://stepwise.example/billing?payment=success',
      cancel_url: 'https://stepwise.example/cn/billing',
      client_reference_id: user.id,
      metadata: { payment_id: started.id, user_id: user.id },
    });
    const session = [...stripe.sessions.values()].find((s) => s.metadata.payment_id === started.id)!;
    expect(started).toEqual({ id: started.id, checkout_url: session.url, mode: 'stripe' });
    expect(await paymentRow(t.app, started.id)).toMatchObject({
      provider: 'stripe',
      provider_session_id: session.id,
      checkout_url: session.url,
      status: 'pending',
    });

    // The test checkout does not exist in Stripe mode.
    expect((await t.app.inject({ url: `${API}/test-checkout/${started.id}`, headers: auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `${API}/test-checkout/${started.id}/complete`, headers: auth })).statusCode).toBe(404);
  });

  it("credits Stripe's completed event, debits its refund, and marks expired sessions", async () => {
    const { auth, user } = await signedInUser(t.app);
    const paid = await checkout(t.app, auth, { pack_id: 'scale' });
    const session = [...stripe.sessions.values()].find((s) => s.metadata.payment_id === paid.id)!;
    const completed = stripe.pay(session.id);
    expect((await deliverEvent(completed)).statusCode).toBe(200);
    expect((await deliverEvent(completed)).statusCode).toBe(200);
    expect(await credits(t.app, user.id)).toBe(10000);

    expect((await deliverEvent(stripe.refund(session.id, 1750))).statusCode).toBe(200);
    expect(await credits(t.app, user.id)).toBe(7500);
    expect(await paymentRow(t.app, paid.id)).toMatchObject({ status: 'partially_refunded', refunded_cents: 1750 });

    const abandoned = await checkout(t.app, auth);
    const abandonedSession = [...stripe.sessions.values()].find((s) => s.metadata.payment_id === abandoned.id)!;
    expect((await deliverEvent(stripe.expire(abandonedSession.id))).statusCode).toBe(200);
    expect((await paymentRow(t.app, abandoned.id)).status).toBe('expired');

    const list = (await t.app.inject({ url: `${API}/`, headers: auth })).json();
    expect(list.items.map((p: { id: string; status: string; provider: string }) => [p.id, p.status, p.provider])).toEqual([
      [abandoned.id, 'expired', 'stripe'],
      [paid.id, 'partially_refunded', 'stripe'],
    ]);
  });

  it('answers 502 {detail} and keeps no payment when Stripe refuses the checkout', async () => {
    const { auth } = await signedInUser(t.app);
    stripe.failNext(400, 'Invalid currency: usd');
    const res = await t.app.inject({ method: 'POST', url: `${API}/create-checkout-session`, headers: auth, payload: { pack_id: 'starter' } });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ detail: 'The payment provider could not start the checkout. Please try again in a moment.' });
    expect((await t.app.inject({ url: `${API}/`, headers: auth })).json().total).toBe(0);
  });

  it('refuses an event signed with the test-mode secret: only Stripe signs in Stripe mode', async () => {
    const { auth, user } = await signedInUser(t.app);
    const started = await checkout(t.app, auth);
    const session = [...stripe.sessions.values()].find((s) => s.metadata.payment_id === started.id)!;
    const forged = signed(stripe.pay(session.id), testWebhookSecret(t.app.secrets.derive(TEST_WEBHOOK_PURPOSE)));
    expect((await deliver(t.app, forged)).statusCode).toBe(400);
    expect(await credits(t.app, user.id)).toBe(0);
  });
});
