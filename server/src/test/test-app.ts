import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../app';
import { loadConfig, type Config } from '../config/config';
import { loadPasswordChecker } from '../modules/auth/password-strength';
import { copySqliteTemplate, createPgDatabase } from './test-databases';

// A file that builds a test app signs someone up, and the first password checked loads zxcvbn's
// dictionaries: 1–2 s on a slow 2-core machine, once per test file (Jest gives each file its own
// modules). Loaded in a hook of its own, that time is not taken from the first test's 5 s.
beforeAll(() => loadPasswordChecker(), 30_000);

/**
 * The one place tests build a server. On the default run it gets a SQLite file of its own; in the
 * `server-postgres` project a PostgreSQL database of its own and a Redis key prefix of its own, so
 * test files can run in parallel against one server and one Redis. Either database starts as a copy
 * of a migrated template (test-databases.ts).
 */
export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** What built `app`: build a second app on the same database with these. */
  appOptions: AppOptions;
  dataDir: string;
  close(): Promise<void>;
}

export const onPostgres = () => process.env.STEPWISE_TEST_DB === 'postgres';

export interface TestDatabase {
  /** DATA_DIR: the SQLite file (stepwise.db), storage, outbox. */
  dataDir: string;
  /** DATABASE_URL and REDIS_URL on PostgreSQL; nothing on SQLite. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A DATA_DIR and, on PostgreSQL, a database, both of this test's own; migrated to the latest version
 * unless `migrated` is false (a test that builds an older version's database itself).
 */
export async function createTestDatabase({ migrated = true } = {}): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-test-'));
  if (!onPostgres()) {
    if (migrated) await copySqliteTemplate(path.join(dataDir, 'stepwise.db'));
    return { dataDir, env: {}, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const database = await createPgDatabase({ migrated });
  return {
    dataDir,
    env: { DATABASE_URL: database.url, REDIS_URL: process.env.TEST_REDIS_URL ?? '' },
    async drop() {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: database.dataDir,
    WEB_DIR: path.join(database.dataDir, 'no-web-app'),
    IN_PROCESS_WORKER: 'false',
    // The suite tests the product with billing on, as a hosted install runs it: credits are granted,
    // charged and checked, and bought through the test checkout (the payment path that needs no
    // Stripe). Billing on needs a way to buy credits, and the test checkout is never implied (a
    // default install has billing off); a test of the default install sets both back to ''.
    BILLING_ENABLED: 'true',
    STRIPE_TEST_CHECKOUT: 'true',
    ...database.env,
    ...env,
  });
  const appOptions: AppOptions = { config, redisNamespace: `test-${randomBytes(6).toString('hex')}`, logger: false };
  const app = await buildApp(appOptions).catch(async (err: unknown) => {
    await database.drop();
    throw err;
  });

  return {
    app,
    config,
    appOptions,
    dataDir: database.dataDir,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

// ---- what a user does, as HTTP calls ----

export interface Account {
  email: string;
  password: string;
  name: string;
}

let counter = 0;
export const newAccount = (overrides: Partial<Account> = {}): Account => ({
  email: `user${++counter}-${randomBytes(3).toString('hex')}@example.com`,
  password: 'correct horse battery',
  name: 'Ada Lovelace',
  ...overrides,
});

export async function signUp(app: FastifyInstance, account: Account = newAccount()) {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: account });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  return { account, user: res.json().user as { id: string; email: string; role: string } };
}

export function logIn(app: FastifyInstance, username: string, password: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password }).toString(),
  });
}

/** Signs a new user up and in; answers the account, the user and an Authorization header. */
export async function signedInUser(app: FastifyInstance, overrides: Partial<Account> = {}) {
  const { account, user } = await signUp(app, newAccount(overrides));
  const res = await logIn(app, account.email, account.password);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const token = res.json().access_token as string;
  return { account, user, token, auth: { authorization: `Bearer ${token}` } };
}
