import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PaymentsConfig } from '../../config/config';
import { currentUser } from '../../plugins/authentication';
import { CheckoutIn, CheckoutOut, PacksOut, PaymentParams, PaymentsPage, PaymentsQuery, RedirectOut, TestCheckoutOut, WebhookOut } from './payments.schemas';
import { PaymentsService } from './payments.service';
import { TEST_WEBHOOK_PURPOSE, testWebhookSecret } from './stripe-client';

const tags = ['Payments'];
/** Stripe's events are a few kilobytes; a megabyte of "event" is not one. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * Checkouts a user may start in ten minutes: each one is a Stripe API call on the operator's
 * account (whose rate limit every buyer shares) and a payments row; a person buying needs a few.
 */
export const checkoutLimit = {
  max: 30,
  timeWindow: 10 * 60_000,
  hook: 'preHandler' as const,
  keyGenerator: (req: FastifyRequest) => `checkout:${currentUser(req).id}`,
};

/**
 * What webhook deliveries are verified with: Stripe's signing secret; for the test checkout that,
 * or one derived from the secrets key; none when nothing is on sale, so no delivery is taken.
 */
function webhookSecret(payments: PaymentsConfig, derived: () => string): string | null {
  if (payments.stripeSecretKey) return payments.stripeWebhookSecret;
  return payments.testCheckout ? (payments.stripeWebhookSecret ?? derived()) : null;
}

/** Registered under /api/v1/payments. */
const paymentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const payments = new PaymentsService(
    app.db,
    app.credits,
    {
      payments: app.config.payments,
      publicUrl: app.config.publicUrl,
      webhookSecret: webhookSecret(app.config.payments, () => testWebhookSecret(app.secrets.derive(TEST_WEBHOOK_PURPOSE))),
    },
    app.log,
  );

  app.get(
    '/packs',
    { schema: { tags, summary: 'The credit packs on sale, and whether checkout is Stripe or the test checkout', response: { 200: PacksOut } } },
    async () => payments.packs(),
  );

  app.post(
    '/create-checkout-session',
    {
      config: { rateLimit: checkoutLimit },
      schema: { tags, summary: 'Start buying a credit pack: answers where to send the buyer', body: CheckoutIn, response: { 200: CheckoutOut } },
    },
    async (req) => payments.createCheckout(currentUser(req).id, req.body),
  );

  app.get('/', { schema: { tags, summary: "The caller's payments, newest first", querystring: PaymentsQuery, response: { 200: PaymentsPage } } }, async (req) =>
    payments.list(currentUser(req).id, req.query),
  );

  app.get(
    '/test-checkout/:id',
    { schema: { tags, summary: 'Test mode: the payment the test checkout page shows', params: PaymentParams, response: { 200: TestCheckoutOut } } },
    async (req) => payments.testCheckout(currentUser(req).id, req.params.id),
  );

  app.post(
    '/test-checkout/:id/complete',
    {
      schema: {
        tags,
        summary: 'Test mode: pay; delivers a signed checkout.session.completed to the webhook handler',
        params: PaymentParams,
        response: { 200: RedirectOut },
      },
    },
    async (req) => payments.completeTestCheckout(currentUser(req).id, req.params.id),
  );

  app.post(
    '/test-checkout/:id/cancel',
    { schema: { tags, summary: 'Test mode: cancel the checkout', params: PaymentParams, response: { 200: RedirectOut } } },
    async (req) => payments.cancelTestCheckout(currentUser(req).id, req.params.id),
  );

  // Stripe signs the exact bytes it sends, so this one route keeps the body as a Buffer, whatever
  // its content type, instead of the JSON parser's object (which would not re-serialise byte for byte).
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));
    raw.post(
      '/webhook',
      {
        config: { public: true },
        bodyLimit: WEBHOOK_BODY_LIMIT,
        schema: { tags, summary: "Stripe's webhook: verified by its Stripe-Signature, idempotent by event id", response: { 200: WebhookOut } },
      },
      async (req) => {
        const signature = req.headers['stripe-signature'];
        await payments.handleWebhook(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), typeof signature === 'string' ? signature : undefined);
        return { received: true as const };
      },
    );
  });
};

export default paymentsRoutes;
