import os from 'node:os';
import path from 'node:path';
import { AddressPolicy } from '../engine/outbound-http/address-policy';

/**
 * Every setting the server reads from the environment, in one place. The README's configuration
 * table lists the same names; `loadConfig` is the only reader of `process.env` in server code.
 */
export interface Config {
  port: number;
  host: string;
  /** Where the embedded defaults keep their files: the SQLite database, storage, outbox. */
  dataDir: string;
  /** PostgreSQL connection string; when absent, SQLite in `dataDir`. */
  databaseUrl: string | null;
  /** Redis connection string; shared rate limits now, the job queue from the run engine on. */
  redisUrl: string | null;
  /** Absolute origin used in links we send by email, e.g. https://stepwise.example.com */
  publicUrl: string;
  /** Folder with the built React app (`vite build`); not served when missing. */
  webDir: string;
  logLevel: string;
  sessionTtlHours: number;
  passwordResetTtlMinutes: number;
  /**
   * Sign-in attempts per window: `max` per client address and email (one account's password),
   * `perAddressMax` per client address alone (one address trying many accounts).
   */
  loginRateLimit: { max: number; perAddressMax: number; windowMs: number };
  smtpUrl: string | null;
  mailFrom: string;
  adminEmails: Set<string>;
  /** Run background jobs (housekeeping now, step runs later) inside the API process. */
  inProcessWorker: boolean;
  /** Trust X-Forwarded-* from a proxy in front of us (rate limits key on the client address). */
  trustProxy: boolean;
  /** Where file bytes live: a folder under `dataDir` (default), or an S3-compatible bucket when S3_BUCKET is set. */
  storage: StorageConfig;
  /** The largest single file a user may upload, in bytes. */
  fileUploadMaxBytes: number;
  /** Bytes of file storage each user may use. */
  storageQuotaBytes: number;
  /** How long a direct-upload target (presigned or signed URL) stays usable. */
  directUploadTtlMinutes: number;
  /**
   * 32 bytes, base64: encrypts secret workflow variables at rest. Without it a key is made once in
   * DATA_DIR/secrets.key (fine for one machine; every process of a scaled-out install needs the same).
   */
  secretsKey: string | null;
  /**
   * Search by meaning: an OpenAI-compatible embeddings endpoint, used when `model` is set;
   * otherwise the built-in local text embedding (offline, no key).
   */
  embedding: EmbeddingConfig;
  /** DuckDB and the local Parquet files behind datasets (engine/datasets). */
  datasets: DatasetsConfig;
  /** Where HTTP steps (requests, API sources, webhooks) may connect; see engine/outbound-http. */
  httpSteps: HttpStepsConfig;
  /** The run engine's job queue. */
  queue: QueueConfig;
  /** The chat model behind agents and AI steps (any OpenAI-compatible endpoint); see server/src/ai. */
  llm: LlmConfig;
  /** The beta programme: with `inviteOnly`, signing up needs an active invitation code. */
  beta: { inviteOnly: boolean };
  /** Contact queries one user may send per hour (support's inbox is read by people). */
  contactRateLimitPerHour: number;
  /** Credits: prices, the sign-up grant, or none of it (self-hosting); see modules/usage. */
  billing: BillingConfig;
  /** Credit packs and the card payments that buy them (modules/payments). */
  payments: PaymentsConfig;
}

export interface CreditPack {
  id: string;
  name: string;
  credits: number;
  /** The price in the currency's smallest unit (cents), as Stripe takes it. */
  amount_cents: number;
  /** ISO 4217, lower case as Stripe writes it. */
  currency: string;
}

export interface PaymentsConfig {
  /** Stripe's secret key: credit packs are bought through Stripe Checkout. */
  stripeSecretKey: string | null;
  /**
   * STRIPE_TEST_CHECKOUT: without a Stripe key, the built-in test checkout, which hands out credits
   * for nothing (development, tests, demos). Never implied: without a key and without this, nothing
   * is on sale.
   */
  testCheckout: boolean;
  /** The webhook endpoint's signing secret (whsec_…); for the test checkout one is derived from the secrets key when absent. */
  stripeWebhookSecret: string | null;
  /** A Stripe stand-in's URL (tests, local mocks): the SDK's host, port and protocol. Null: api.stripe.com. */
  stripeApiBase: string | null;
  packs: CreditPack[];
}

export interface BillingConfig {
  /**
   * Off: no grant, no debits, no balance checks; runs are free. By default on exactly when credits
   * can be bought (a Stripe key or the test checkout); on without either, the start stops.
   */
  enabled: boolean;
  /** Credits granted once to each new account. */
  signupCredits: number;
  /** Credits per unit by step type id, over the step types' own cost hints. */
  stepPrices: Record<string, number>;
  /** Credits per 1000 AI tokens (in and out alike). */
  aiTokenPricePer1k: number;
}

export interface DatasetsConfig {
  /** DuckDB's memory limit (`1GB`, `512MB`); above it DuckDB spills to `tempDir`. */
  duckdbMemoryLimit: string;
  /** DuckDB worker threads, shared by every query of the process. */
  duckdbThreads: number;
  /** Local folder for dataset files being written, and DuckDB's spill files. */
  tempDir: string;
  /** Local folder of Parquet files downloaded from S3 and of ordered copies; one per process. */
  cacheDir: string;
  /** Bytes the cache may hold before the least recently used files are removed. */
  cacheMaxBytes: number;
  /**
   * Days run outputs are kept; then housekeeping deletes them, except each step's newest output
   * and any a step run in progress reads. 0: kept until deleted by hand.
   */
  retentionDays: number;
}

export interface HttpStepsConfig {
  /** Private, loopback and link-local addresses become reachable; cloud metadata addresses stay shut. */
  allowPrivate: boolean;
  /** CIDRs, addresses, host names and `*.suffix` wildcards reachable whatever they resolve to. */
  allowedHosts: string[];
}

export interface QueueConfig {
  /** 'bullmq' (jobs in Redis, shared by every process) is the default when REDIS_URL is set. */
  backend: 'memory' | 'bullmq';
  /** Jobs of one kind running at once in one process (API with the in-process worker, or `npm run worker`). */
  concurrency: number;
  /** Redis key prefix of the installation: its BullMQ queues, run events and rate-limit counters. */
  prefix: string;
  /** BullMQ: how long a running job's lock lasts without renewal; a dead worker's job is retaken after about this. */
  lockDurationMs: number;
  /** BullMQ: how often each worker looks for jobs whose worker died. */
  stalledIntervalMs: number;
  /** BullMQ: how many times a job may be retaken from a dead worker before it counts as failed. */
  maxStalledCount: number;
}

export interface LlmConfig {
  /** Base URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. */
  baseUrl: string | null;
  apiKey: string | null;
  /** The chat model; without it (and without a user's own in settings) agents and AI steps are off. */
  model: string | null;
  /** `openai` uses OpenAI's own client (its Responses-era features); anything else the generic one. */
  provider: 'openai' | 'openai-compatible';
  /** One model call's time limit. */
  timeoutMs: number;
}

export interface EmbeddingConfig {
  /** Base URL of the API, e.g. https://api.openai.com/v1 (the client adds /embeddings). */
  apiUrl: string | null;
  apiKey: string | null;
  model: string | null;
}

export type StorageConfig =
  | { backend: 'local'; dir: string }
  | {
      backend: 's3';
      bucket: string;
      /** Empty for AWS itself; the URL of MinIO, R2, s3rver… otherwise. */
      endpoint: string | null;
      region: string;
      accessKeyId: string | null;
      secretAccessKey: string | null;
      forcePathStyle: boolean;
      /** Direct uploads larger than this are split into presigned parts of this size (S3 minimum 5 MiB). */
      multipartPartBytes: number;
    };

const int = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${value}"`);
  return n;
};

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * A quarter of the machine's memory, at most 4 GiB: DuckDB's own default (80%) suits a database
 * server, not a web process that shares the machine with the API, the worker and PostgreSQL.
 */
const defaultDuckdbMemory = () => `${Math.max(256, Math.min(4096, Math.floor(os.totalmem() / 4 / MiB)))}MB`;

const bool = (value: string | undefined, fallback: boolean): boolean =>
  value === undefined || value === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

/** `512MB`, `2GB`, `1.5GiB`: a size DuckDB understands, checked here so a typo fails at start. */
function memorySize(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(value.trim()))
    throw new Error(`DUCKDB_MEMORY_LIMIT must be a size like 1GB or 512MB, got "${value}"`);
  return value.trim();
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env.PORT, 8000, 'PORT');
  const root = path.resolve(__dirname, '../../..');
  const dataDir = path.resolve(env.DATA_DIR || path.join(root, 'data'));
  const payments = paymentsConfig(env);
  const config: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    webDir: path.resolve(env.WEB_DIR || path.join(root, 'dist')),
    logLevel: env.LOG_LEVEL || 'info',
    sessionTtlHours: int(env.SESSION_TTL_HOURS, 24 * 7, 'SESSION_TTL_HOURS'),
    passwordResetTtlMinutes: int(env.PASSWORD_RESET_TTL_MINUTES, 60, 'PASSWORD_RESET_TTL_MINUTES'),
    loginRateLimit: {
      max: int(env.LOGIN_RATE_LIMIT_MAX, 10, 'LOGIN_RATE_LIMIT_MAX'),
      perAddressMax: int(env.LOGIN_RATE_LIMIT_PER_ADDRESS_MAX, 100, 'LOGIN_RATE_LIMIT_PER_ADDRESS_MAX'),
      windowMs: int(env.LOGIN_RATE_LIMIT_WINDOW_SECONDS, 15 * 60, 'LOGIN_RATE_LIMIT_WINDOW_SECONDS') * 1000,
    },
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Stepwise <no-reply@stepwise.local>',
    adminEmails: new Set(
      (env.ADMIN_EMAILS || '')
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
    inProcessWorker: bool(env.IN_PROCESS_WORKER, true),
    trustProxy: bool(env.TRUST_PROXY, false),
    storage: env.S3_BUCKET
      ? {
          backend: 's3',
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT || null,
          region: env.S3_REGION || 'us-east-1',
          accessKeyId: env.S3_ACCESS_KEY_ID || null,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
          // MinIO, s3rver and most self-hosted stores need path-style URLs; AWS prefers virtual hosts.
          forcePathStyle: bool(env.S3_FORCE_PATH_STYLE, Boolean(env.S3_ENDPOINT)),
          multipartPartBytes: Math.max(5 * MiB, int(env.S3_MULTIPART_PART_BYTES, 64 * MiB, 'S3_MULTIPART_PART_BYTES')),
        }
      : { backend: 'local', dir: path.join(dataDir, 'storage') },
    fileUploadMaxBytes: int(env.FILE_UPLOAD_MAX_BYTES, 5 * GiB, 'FILE_UPLOAD_MAX_BYTES'),
    storageQuotaBytes: int(env.STORAGE_QUOTA_BYTES, 10 * GiB, 'STORAGE_QUOTA_BYTES'),
    directUploadTtlMinutes: Math.max(1, int(env.DIRECT_UPLOAD_TTL_MINUTES, 60, 'DIRECT_UPLOAD_TTL_MINUTES')),
    secretsKey: env.SECRETS_KEY || null,
    embedding: {
      apiUrl: env.EMBEDDING_API_URL || null,
      apiKey: env.EMBEDDING_API_KEY || null,
      model: env.EMBEDDING_MODEL || null,
    },
    llm: {
      baseUrl: env.LLM_BASE_URL || null,
      apiKey: env.LLM_API_KEY || null,
      model: env.LLM_MODEL || null,
      provider: env.LLM_PROVIDER === 'openai' ? 'openai' : 'openai-compatible',
      timeoutMs: Math.max(1_000, int(env.LLM_TIMEOUT_MS, 120_000, 'LLM_TIMEOUT_MS')),
    },
    datasets: {
      duckdbMemoryLimit: memorySize(env.DUCKDB_MEMORY_LIMIT) ?? defaultDuckdbMemory(),
      duckdbThreads: Math.max(1, int(env.DUCKDB_THREADS, os.availableParallelism(), 'DUCKDB_THREADS')),
      tempDir: path.join(dataDir, 'tmp'),
      cacheDir: path.resolve(env.DATASET_CACHE_DIR || path.join(dataDir, 'cache', 'datasets')),
      cacheMaxBytes: int(env.DATASET_CACHE_MAX_BYTES, 10 * GiB, 'DATASET_CACHE_MAX_BYTES'),
      retentionDays: int(env.DATASET_RETENTION_DAYS, 30, 'DATASET_RETENTION_DAYS'),
    },
    httpSteps: {
      allowPrivate: bool(env.HTTP_STEPS_ALLOW_PRIVATE, false),
      allowedHosts: (env.HTTP_STEPS_ALLOWED_HOSTS || '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    },
    queue: queueConfig(env),
    payments,
    beta: { inviteOnly: bool(env.BETA_INVITE_ONLY, false) },
    contactRateLimitPerHour: Math.max(1, int(env.CONTACT_RATE_LIMIT_PER_HOUR, 5, 'CONTACT_RATE_LIMIT_PER_HOUR')),
    billing: billingConfig(env, payments),
  };
  // A typo in the allow-list should stop the start, not surface as refused calls in some run later.
  new AddressPolicy(config.httpSteps);
  return { ...config, ...overrides };
}

/** Credits up to a million per unit: a larger price is a typo, caught at start rather than on a bill. */
const MAX_PRICE = 1_000_000;

function billingConfig(env: NodeJS.ProcessEnv, payments: PaymentsConfig): BillingConfig {
  // Credits someone can buy, or billing has nothing to sell. The default follows: a fresh clone's
  // `npm start` (no Stripe key) runs free, as a self-hoster expects, instead of charging credits
  // nobody can buy or (before) handing them out through a test checkout anyone could "pay".
  const canBuyCredits = payments.stripeSecretKey !== null || payments.testCheckout;
  const enabled = bool(env.BILLING_ENABLED, canBuyCredits);
  if (enabled && !canBuyCredits)
    throw new Error(
      'BILLING_ENABLED=true needs a way to buy credits: set STRIPE_SECRET_KEY (with STRIPE_WEBHOOK_SECRET) for Stripe Checkout, ' +
        'or BILLING_ENABLED=false to run without credits (self-hosting), ' +
        'or STRIPE_TEST_CHECKOUT=true for the built-in test checkout, which gives credits away for nothing (development and tests only)',
    );
  const price = (value: unknown, name: string): number => {
    const n = typeof value === 'string' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > MAX_PRICE)
      throw new Error(`${name} must be a number of credits from 0 to ${MAX_PRICE}, got ${JSON.stringify(value)}`);
    return n;
  };
  const stepPrices: Record<string, number> = {};
  if (env.STEP_PRICES) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(env.STEP_PRICES);
    } catch {
      throw new Error(`STEP_PRICES must be a JSON object like {"ai_prompt": 1.5}, got "${env.STEP_PRICES}"`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error(`STEP_PRICES must be a JSON object like {"ai_prompt": 1.5}, got "${env.STEP_PRICES}"`);
    for (const [type, credits] of Object.entries(parsed)) stepPrices[type] = price(credits, `STEP_PRICES.${type}`);
  }
  return {
    enabled,
    signupCredits: env.BILLING_SIGNUP_CREDITS ? price(env.BILLING_SIGNUP_CREDITS, 'BILLING_SIGNUP_CREDITS') : 100,
    stepPrices,
    aiTokenPricePer1k: env.AI_TOKEN_PRICE_PER_1K ? price(env.AI_TOKEN_PRICE_PER_1K, 'AI_TOKEN_PRICE_PER_1K') : 0.02,
  };
}

function queueConfig(env: NodeJS.ProcessEnv): QueueConfig {
  const backend = (env.QUEUE_BACKEND || (env.REDIS_URL ? 'bullmq' : 'memory')).toLowerCase();
  if (backend !== 'memory' && backend !== 'bullmq') throw new Error(`QUEUE_BACKEND must be "memory" or "bullmq", got "${env.QUEUE_BACKEND}"`);
  if (backend === 'bullmq' && !env.REDIS_URL) throw new Error('QUEUE_BACKEND=bullmq needs REDIS_URL');
  const lockDurationMs = Math.max(1000, int(env.QUEUE_LOCK_DURATION_MS, 30_000, 'QUEUE_LOCK_DURATION_MS'));
  return {
    backend,
    concurrency: Math.min(256, Math.max(1, int(env.QUEUE_CONCURRENCY, 4, 'QUEUE_CONCURRENCY'))),
    prefix: env.QUEUE_PREFIX || 'stepwise',
    lockDurationMs,
    stalledIntervalMs: Math.max(500, int(env.QUEUE_STALLED_INTERVAL_MS, 30_000, 'QUEUE_STALLED_INTERVAL_MS')),
    maxStalledCount: int(env.QUEUE_MAX_STALLED_COUNT, 2, 'QUEUE_MAX_STALLED_COUNT'),
  };
}

/** Three packs, cheaper per credit as they grow: enough to try, to work, to run at scale. */
export const DEFAULT_CREDIT_PACKS: CreditPack[] = [
  { id: 'starter', name: 'Starter', credits: 500, amount_cents: 500, currency: 'usd' },
  { id: 'team', name: 'Team', credits: 2500, amount_cents: 2000, currency: 'usd' },
  { id: 'scale', name: 'Scale', credits: 10000, amount_cents: 7000, currency: 'usd' },
];

function paymentsConfig(env: NodeJS.ProcessEnv): PaymentsConfig {
  const stripeSecretKey = env.STRIPE_SECRET_KEY || null;
  const stripeWebhookSecret = env.STRIPE_WEBHOOK_SECRET || null;
  // Stripe would take the money and we would never hear of it: no webhook, no credits.
  if (stripeSecretKey && !stripeWebhookSecret)
    throw new Error("STRIPE_SECRET_KEY needs STRIPE_WEBHOOK_SECRET (the webhook endpoint's signing secret), or purchases are never credited");
  return {
    stripeSecretKey,
    // Asked for, never implied by a missing key: the test checkout credits whoever clicks "Pay".
    // With a Stripe key it is not used (Stripe's checkout is the one that takes money).
    testCheckout: bool(env.STRIPE_TEST_CHECKOUT, false),
    stripeWebhookSecret,
    stripeApiBase: stripeApiBase(env.STRIPE_API_BASE),
    packs: creditPacks(env.CREDIT_PACKS),
  };
}

function stripeApiBase(value: string | undefined): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`STRIPE_API_BASE must be a URL like http://127.0.0.1:12111, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`STRIPE_API_BASE must be http or https, got "${value}"`);
  return url.origin;
}

/** CREDIT_PACKS as JSON, checked whole at start: a typo must not surface as a broken checkout later. */
export function creditPacks(value: string | undefined): CreditPack[] {
  if (value === undefined || value.trim() === '') return DEFAULT_CREDIT_PACKS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error('CREDIT_PACKS must be JSON: [{"id","name","credits","amount_cents","currency"}, ...]');
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > 20) throw new Error('CREDIT_PACKS must be a list of 1 to 20 packs');
  const packs = parsed.map((item: unknown, i): CreditPack => {
    const p = (item ?? {}) as Record<string, unknown>;
    const fail = (what: string) => new Error(`CREDIT_PACKS[${i}]: ${what}`);
    if (typeof p.id !== 'string' || !/^[a-z0-9][a-z0-9_-]{0,39}$/.test(p.id)) throw fail('id must be 1-40 of a-z, 0-9, _ and -');
    if (typeof p.name !== 'string' || p.name.trim() === '' || p.name.length > 100) throw fail('name must be 1-100 characters');
    if (typeof p.credits !== 'number' || !Number.isFinite(p.credits) || p.credits <= 0 || p.credits > 1e9)
      throw fail('credits must be a number above 0 and at most 1e9');
    if (!Number.isInteger(p.amount_cents) || (p.amount_cents as number) < 1 || (p.amount_cents as number) > 99_999_999)
      throw fail('amount_cents must be a whole number from 1 to 99999999');
    if (typeof p.currency !== 'string' || !/^[a-zA-Z]{3}$/.test(p.currency)) throw fail('currency must be a three-letter code like usd');
    return { id: p.id, name: p.name.trim(), credits: p.credits, amount_cents: p.amount_cents as number, currency: p.currency.toLowerCase() };
  });
  const ids = new Set(packs.map((p) => p.id));
  if (ids.size !== packs.length) throw new Error('CREDIT_PACKS: pack ids must be unique');
  return packs;
}
