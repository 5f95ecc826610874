import Stripe from 'stripe';
import { buildApp } from '../../app';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { TEST_WEBHOOK_PURPOSE, testWebhookSecret } from './stripe-client';

const API = '/api/v1/payments';

// A default install (no Stripe key, no STRIPE_TEST_CHECKOUT) has nothing on sale: billing is off,
// and the test checkout, which credits whoever clicks "Pay", is not there to give credits away.
// The empty values put back the defaults the test app otherwise overrides (test-app.ts).
const DEFAULT_INSTALL = { BILLING_ENABLED: '', STRIPE_TEST_CHECKOUT: '' };

describe('payments on a default install (no Stripe key, no test checkout)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(DEFAULT_INSTALL);
  });
  afterAll(() => t.close());

  it('runs free and sells nothing: no packs, no checkout, in either language', async () => {
    expect(t.config.billing.enabled).toBe(false);
    const { auth } = await signedInUser(t.app);
    expect((await t.app.inject({ url: '/api/v1/balance/', headers: auth })).json()).toEqual({ balance: 0, billing_enabled: false, paused_runs: 0 });
    expect((await t.app.inject({ url: `${API}/packs`, headers: auth })).json()).toEqual({ mode: 'off', items: [] });

    const refused = await t.app.inject({ method: 'POST', url: `${API}/create-checkout-session`, headers: auth, payload: { pack_id: 'starter' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: 'Credits are not on sale on this server.' });
    const zh = await t.app.inject({
      method: 'POST',
      url: `${API}/create-checkout-session`,
      headers: { ...auth, 'accept-language': 'zh-CN' },
      payload: { pack_id: 'starter' },
    });
    expect(zh.json()).toEqual({ detail: '此服务器不出售点数。' });
    expect((await t.app.inject({ url: `${API}/`, headers: auth })).json().total).toBe(0);
  });

  it('refuses a webhook even when signed with the secret the test checkout would use', async () => {
    const payload = JSON.stringify({ id: 'evt_free', type: 'checkout.session.completed', data: { object: { id: 'cs_test_x', payment_status: 'paid' } } });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: testWebhookSecret(t.app.secrets.derive(TEST_WEBHOOK_PURPOSE)) });
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/webhook`,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(await t.app.db.selectFrom('payment_events').select('event_id').where('event_id', '=', 'evt_free').executeTakeFirst()).toBeUndefined();
  });

  it('cannot pay a test checkout started before the test checkout was turned off', async () => {
    // The same database, first served with the test checkout on (as before this change, by default).
    const before = await buildApp({ ...t.appOptions, config: { ...t.config, payments: { ...t.config.payments, testCheckout: true } } });
    let paymentId: string;
    let auth: Record<string, string>;
    let userId: string;
    try {
      const buyer = await signedInUser(before);
      ({ auth } = buyer);
      userId = buyer.user.id;
      const started = await before.inject({ method: 'POST', url: `${API}/create-checkout-session`, headers: auth, payload: { pack_id: 'scale' } });
      expect(started.json().mode).toBe('test');
      paymentId = started.json().id;
    } finally {
      await before.close();
    }
    for (const [method, url] of [
      ['GET', `${API}/test-checkout/${paymentId}`],
      ['POST', `${API}/test-checkout/${paymentId}/complete`],
    ] as const) {
      expect([url, (await t.app.inject({ method, url, headers: auth })).statusCode]).toEqual([url, 404]);
    }
    expect(await t.app.credits.balanceMicro(userId)).toBe(0);
  });
});

describe('the test checkout, asked for', () => {
  it('is on with STRIPE_TEST_CHECKOUT=true, and billing with it', async () => {
    const t = await createTestApp({ BILLING_ENABLED: '', STRIPE_TEST_CHECKOUT: 'true' });
    try {
      expect(t.config.billing.enabled).toBe(true);
      const { auth } = await signedInUser(t.app);
      expect((await t.app.inject({ url: `${API}/packs`, headers: auth })).json().mode).toBe('test');
    } finally {
      await t.close();
    }
  });
});
