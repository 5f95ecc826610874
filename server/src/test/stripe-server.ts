import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the part of Stripe's API the product calls: a real HTTP server on loopback that
 * speaks Stripe's wire format (form-encoded bodies with bracketed keys, bearer secret key, JSON
 * objects and `{error: {type, message}}` answers), so the real `stripe` SDK is tested over real
 * HTTP through its host/port/protocol options (STRIPE_API_BASE).
 *
 * Served: `POST /v1/checkout/sessions` (Idempotency-Key honoured as Stripe does) and
 * `GET /v1/checkout/sessions/:id`. Tests read every request received, make the next call fail,
 * and ask for the events Stripe would send when a buyer pays, a session expires or a charge is
 * refunded (unsigned: the test signs them with the SDK's own helper, as Stripe's docs advise).
 */

export interface StripeRequestSeen {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The form body decoded into nested objects and arrays (`line_items[0][quantity]=1`). */
  body: Record<string, unknown>;
}

export interface StandInSession {
  id: string;
  object: 'checkout.session';
  url: string | null;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string | null;
  payment_intent: string | null;
  livemode: false;
  created: number;
}

export interface StripeServer {
  /** Origin, as STRIPE_API_BASE takes it. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Environment that puts the app in Stripe mode against this server. */
  env: Record<string, string>;
  requests: StripeRequestSeen[];
  sessions: Map<string, StandInSession>;
  /** The next API call answers this error (Stripe's error shape). */
  failNext(status: number, message?: string): void;
  /** The buyer paid: the session completes and gets a payment intent; answers the checkout.session.completed event. */
  pay(sessionId: string): StripeEvent;
  /** The session timed out unpaid: answers the checkout.session.expired event. */
  expire(sessionId: string): StripeEvent;
  /** A refund on the session's charge, bringing its refunded total to `amountRefunded`: answers charge.refunded. */
  refund(sessionId: string, amountRefunded: number): StripeEvent;
  close(): Promise<void>;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: false;
  api_version: string;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  data: { object: Record<string, unknown> };
}

const token = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** `a[b][0][c]=v` form keys into nested objects, with all-numeric levels as arrays (Stripe's encoding). */
export function decodeForm(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const entries = Object.entries(v).map(([k, child]) => [k, arrays(child)] as const);
    return entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))
      ? entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, c]) => c)
      : Object.fromEntries(entries);
  };
  return arrays(root) as Record<string, unknown>;
}

export async function startStripeServer(options: { secretKey?: string; webhookSecret?: string } = {}): Promise<StripeServer> {
  const secretKey = options.secretKey ?? token('sk_test');
  const webhookSecret = options.webhookSecret ?? token('whsec');
  const requests: StripeRequestSeen[] = [];
  const sessions = new Map<string, StandInSession>();
  const byIdempotencyKey = new Map<string, StandInSession>();
  let failure: { status: number; message: string } | null = null;
  let origin = '';

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': token('req') });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, message: string, type = 'invalid_request_error') => send(res, status, { error: { type, message } });

  const createSession = (body: Record<string, unknown>): StandInSession | string => {
    if (body.mode !== 'payment') return 'mode: only "payment" is served by this stand-in';
    if (typeof body.success_url !== 'string') return 'Missing required param: success_url.';
    const items = Array.isArray(body.line_items) ? (body.line_items as Record<string, Record<string, unknown>>[]) : [];
    if (items.length === 0) return 'Missing required param: line_items.';
    let total = 0;
    let currency = '';
    for (const item of items) {
      const price = item.price_data as Record<string, unknown> | undefined;
      const unit = Number(price?.unit_amount);
      if (!price || !Number.isInteger(unit) || typeof price.currency !== 'string') return 'line_items[price_data] needs currency and unit_amount.';
      total += unit * Number(item.quantity ?? 1);
      currency = price.currency;
    }
    const id = token('cs_test');
    return {
      id,
      object: 'checkout.session',
      url: `${origin}/c/pay/${id}`,
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: total,
      currency,
      client_reference_id: typeof body.client_reference_id === 'string' ? body.client_reference_id : null,
      metadata: (body.metadata as Record<string, string>) ?? {},
      success_url: body.success_url,
      cancel_url: typeof body.cancel_url === 'string' ? body.cancel_url : null,
      payment_intent: null,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      const raw = Buffer.concat(chunks).toString('utf8');
      const idempotencyKey = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
      const seen: StripeRequestSeen = { method: req.method ?? 'GET', path, authorization: req.headers.authorization, idempotencyKey, body: decodeForm(raw) };
      requests.push(seen);

      if (req.headers.authorization !== `Bearer ${secretKey}`) return error(res, 401, 'Invalid API Key provided.');
      if (failure) {
        const { status, message } = failure;
        failure = null;
        return error(res, status, message, status >= 500 ? 'api_error' : 'invalid_request_error');
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const again = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
        if (again) return send(res, 200, again);
        const created = createSession(seen.body);
        if (typeof created === 'string') return error(res, 400, created);
        sessions.set(created.id, created);
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, created);
        return send(res, 200, created);
      }
      const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && match && sessions.has(match[1])) return send(res, 200, sessions.get(match[1]));
      return error(res, 404, `Unrecognized request URL (${req.method}: ${path}).`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const event = (type: string, object: Record<string, unknown>): StripeEvent => ({
    id: token('evt'),
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    api_version: '2026-10-28.endive',
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  const sessionOf = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`The stand-in made no session ${id}`);
    return session;
  };

  return {
    url: origin,
    secretKey,
    webhookSecret,
    env: { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: origin },
    requests,
    sessions,
    failNext(status, message = 'Something went wrong on the stand-in.') {
      failure = { status, message };
    },
    pay(sessionId) {
      const session = sessionOf(sessionId);
      Object.assign(session, { status: 'complete', payment_status: 'paid', url: null, payment_intent: session.payment_intent ?? token('pi') });
      return event('checkout.session.completed', { ...session });
    },
    expire(sessionId) {
      const session = sessionOf(sessionId);
      Object.assign(session, { status: 'expired', url: null });
      return event('checkout.session.expired', { ...session });
    },
    refund(sessionId, amountRefunded) {
      const session = sessionOf(sessionId);
      if (!session.payment_intent) throw new Error('Only a paid session has a charge to refund');
      return event('charge.refunded', {
        id: `ch_${session.payment_intent.slice(3)}`,
        object: 'charge',
        amount: session.amount_total,
        amount_refunded: amountRefunded,
        currency: session.currency,
        payment_intent: session.payment_intent,
        refunded: amountRefunded >= session.amount_total,
        paid: true,
        status: 'succeeded',
        livemode: false,
      });
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
