import { loadConfig } from './config';

describe('HTTP step settings', () => {
  it('keeps run outputs 30 days unless DATASET_RETENTION_DAYS says otherwise (0: forever)', () => {
    expect(loadConfig({}).datasets.retentionDays).toBe(30);
    expect(loadConfig({ DATASET_RETENTION_DAYS: '0' }).datasets.retentionDays).toBe(0);
    expect(loadConfig({ DATASET_RETENTION_DAYS: '7' }).datasets.retentionDays).toBe(7);
    expect(() => loadConfig({ DATASET_RETENTION_DAYS: '-1' })).toThrow(/DATASET_RETENTION_DAYS/);
  });

  it('refuses private addresses unless the operator says otherwise', () => {
    expect(loadConfig({}).httpSteps).toEqual({ allowPrivate: false, allowedHosts: [] });
  });

  it('reads HTTP_STEPS_ALLOW_PRIVATE and a comma-separated HTTP_STEPS_ALLOWED_HOSTS', () => {
    const config = loadConfig({ HTTP_STEPS_ALLOW_PRIVATE: 'true', HTTP_STEPS_ALLOWED_HOSTS: ' 10.1.0.0/16, api.internal ,*.corp.example,' });
    expect(config.httpSteps).toEqual({ allowPrivate: true, allowedHosts: ['10.1.0.0/16', 'api.internal', '*.corp.example'] });
  });

  it('stops the start on an entry it cannot read', () => {
    expect(() => loadConfig({ HTTP_STEPS_ALLOWED_HOSTS: '10.0.0.0/40' })).toThrow(/HTTP_STEPS_ALLOWED_HOSTS: "10.0.0.0\/40"/);
  });
});

describe('queue configuration', () => {
  it('keeps jobs in memory by default and in BullMQ once REDIS_URL is set, unless told otherwise', () => {
    expect(loadConfig({}).queue).toEqual({
      backend: 'memory',
      concurrency: 4,
      prefix: 'stepwise',
      lockDurationMs: 30_000,
      stalledIntervalMs: 30_000,
      maxStalledCount: 2,
    });
    expect(loadConfig({ REDIS_URL: 'redis://r:6379' }).queue.backend).toBe('bullmq');
    expect(loadConfig({ REDIS_URL: 'redis://r:6379', QUEUE_BACKEND: 'memory' }).queue.backend).toBe('memory');
  });

  it('reads the concurrency and BullMQ timings, within bounds', () => {
    const queue = loadConfig({
      QUEUE_CONCURRENCY: '8',
      QUEUE_PREFIX: 'acme',
      QUEUE_LOCK_DURATION_MS: '5000',
      QUEUE_STALLED_INTERVAL_MS: '2000',
      QUEUE_MAX_STALLED_COUNT: '0',
    }).queue;
    expect(queue).toMatchObject({ concurrency: 8, prefix: 'acme', lockDurationMs: 5000, stalledIntervalMs: 2000, maxStalledCount: 0 });
    expect(loadConfig({ QUEUE_CONCURRENCY: '0' }).queue.concurrency).toBe(1);
    expect(loadConfig({ QUEUE_CONCURRENCY: '100000' }).queue.concurrency).toBe(256);
  });

  it('refuses a backend it does not know, and BullMQ without Redis', () => {
    expect(() => loadConfig({ QUEUE_BACKEND: 'sqs' })).toThrow(/QUEUE_BACKEND/);
    expect(() => loadConfig({ QUEUE_BACKEND: 'bullmq' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ QUEUE_CONCURRENCY: 'many' })).toThrow(/QUEUE_CONCURRENCY/);
  });
});

describe('payments configuration', () => {
  it('sells nothing until a Stripe key is given or the test checkout asked for, with three default packs', () => {
    const { payments } = loadConfig({});
    expect(payments.testCheckout).toBe(false);
    expect(payments.stripeSecretKey).toBeNull();
    expect(payments.stripeWebhookSecret).toBeNull();
    expect(payments.stripeApiBase).toBeNull();
    expect(payments.packs.map((p) => [p.id, p.credits, p.amount_cents, p.currency])).toEqual([
      ['starter', 500, 500, 'usd'],
      ['team', 2500, 2000, 'usd'],
      ['scale', 10000, 7000, 'usd'],
    ]);
  });

  it('needs the webhook secret with the Stripe key, or purchases would never be credited', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_API_BASE: 'http://127.0.0.1:12111/' }).payments).toMatchObject(
      {
        stripeSecretKey: 'sk_test_x',
        stripeWebhookSecret: 'whsec_x',
        stripeApiBase: 'http://127.0.0.1:12111',
      },
    );
    expect(() => loadConfig({ STRIPE_API_BASE: 'ftp://stripe.local' })).toThrow(/STRIPE_API_BASE/);
    expect(() => loadConfig({ STRIPE_API_BASE: 'not a url' })).toThrow(/STRIPE_API_BASE/);
  });

  it('reads CREDIT_PACKS as JSON and stops the start on a pack it cannot sell', () => {
    const packs = loadConfig({ CREDIT_PACKS: '[{"id":"mini","name":" Mini ","credits":12.5,"amount_cents":100,"currency":"EUR"}]' }).payments.packs;
    expect(packs).toEqual([{ id: 'mini', name: 'Mini', credits: 12.5, amount_cents: 100, currency: 'eur' }]);
    const pack = { id: 'a', name: 'A', credits: 1, amount_cents: 100, currency: 'usd' };
    for (const [value, message] of [
      ['not json', /must be JSON/],
      ['[]', /1 to 20/],
      ['{}', /1 to 20/],
      [JSON.stringify([{ ...pack, id: 'Has Space' }]), /\[0\]: id/],
      [JSON.stringify([{ ...pack, credits: 0 }]), /\[0\]: credits/],
      [JSON.stringify([{ ...pack, amount_cents: 1.5 }]), /\[0\]: amount_cents/],
      [JSON.stringify([{ ...pack, currency: 'dollars' }]), /\[0\]: currency/],
      [JSON.stringify([pack, null]), /\[1\]: id/],
      [JSON.stringify([pack, pack]), /unique/],
    ] as const) {
      expect(() => loadConfig({ CREDIT_PACKS: value })).toThrow(message);
    }
  });
});

describe('support and beta settings', () => {
  it('keeps sign-up open and allows 5 contact queries an hour unless told otherwise', () => {
    expect(loadConfig({}).beta).toEqual({ inviteOnly: false });
    expect(loadConfig({}).contactRateLimitPerHour).toBe(5);
    const set = loadConfig({ BETA_INVITE_ONLY: 'true', CONTACT_RATE_LIMIT_PER_HOUR: '20' });
    expect(set.beta.inviteOnly).toBe(true);
    expect(set.contactRateLimitPerHour).toBe(20);
    expect(() => loadConfig({ CONTACT_RATE_LIMIT_PER_HOUR: 'lots' })).toThrow(/CONTACT_RATE_LIMIT_PER_HOUR/);
  });
});

describe('billing configuration', () => {
  it('charges with 100 sign-up credits and the step types’ own prices once credits can be bought', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(loadConfig(stripe).billing).toEqual({ enabled: true, signupCredits: 100, stepPrices: {}, aiTokenPricePer1k: 0.02 });
    expect(loadConfig({ STRIPE_TEST_CHECKOUT: 'true' }).billing.enabled).toBe(true);
    expect(
      loadConfig({ BILLING_ENABLED: 'false', BILLING_SIGNUP_CREDITS: '5', STEP_PRICES: '{"ai_prompt": 1.5, "code": 0}', AI_TOKEN_PRICE_PER_1K: '0.1' }).billing,
    ).toEqual({
      enabled: false,
      signupCredits: 5,
      stepPrices: { ai_prompt: 1.5, code: 0 },
      aiTokenPricePer1k: 0.1,
    });
  });

  it('is off on a default install: no credits to buy, so none to charge, and no free ones to give', () => {
    expect(loadConfig({}).billing.enabled).toBe(false);
    expect(loadConfig({}).payments.testCheckout).toBe(false);
    expect(loadConfig({ BILLING_ENABLED: 'false', STRIPE_TEST_CHECKOUT: 'true' }).billing.enabled).toBe(false);
  });

  it('stops the start when billing is on with no way to buy credits, naming the ways out', () => {
    for (const env of [{ BILLING_ENABLED: 'true' }, { BILLING_ENABLED: 'true', STRIPE_TEST_CHECKOUT: 'false' }]) {
      expect(() => loadConfig(env)).toThrow(/BILLING_ENABLED=true needs a way to buy credits/);
      expect(() => loadConfig(env)).toThrow(/BILLING_ENABLED=false/);
      expect(() => loadConfig(env)).toThrow(/STRIPE_TEST_CHECKOUT=true/);
    }
    expect(loadConfig({ BILLING_ENABLED: 'true', STRIPE_TEST_CHECKOUT: 'true' }).payments.testCheckout).toBe(true);
    expect(loadConfig({ BILLING_ENABLED: 'true', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).billing.enabled).toBe(true);
  });

  it('stops the start on prices it cannot read', () => {
    expect(() => loadConfig({ STEP_PRICES: '{ai_prompt: 1}' })).toThrow(/STEP_PRICES must be a JSON object/);
    expect(() => loadConfig({ STEP_PRICES: '[1, 2]' })).toThrow(/STEP_PRICES must be a JSON object/);
    expect(() => loadConfig({ STEP_PRICES: '{"ai_prompt": -1}' })).toThrow(/STEP_PRICES\.ai_prompt/);
    expect(() => loadConfig({ STEP_PRICES: '{"ai_prompt": "cheap"}' })).toThrow(/STEP_PRICES\.ai_prompt/);
    expect(() => loadConfig({ AI_TOKEN_PRICE_PER_1K: '-0.5' })).toThrow(/AI_TOKEN_PRICE_PER_1K/);
    expect(() => loadConfig({ BILLING_SIGNUP_CREDITS: 'lots' })).toThrow(/BILLING_SIGNUP_CREDITS/);
  });
});
