import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../app';
import { loadConfig, type Config } from '../config/config';

/**
 * The one place tests build a server. On the default run it gets a fresh SQLite file; in the
 * `server-postgres` project a fresh PostgreSQL schema and a Redis key prefix of its own, so test
 * files can run in parallel against one database and one Redis.
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

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-test-'));
  const postgres = onPostgres();
  const suffix = randomBytes(6).toString('hex');
  const pgSchema = postgres ? `test_${suffix}` : undefined;
  if (pgSchema) await withPgClient((c) => c.query(`CREATE SCHEMA ${pgSchema}`));

  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIR: path.join(dataDir, 'no-web-app'),
    IN_PROCESS_WORKER: 'false',
    ...(postgres ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, REDIS_URL: process.env.TEST_REDIS_URL ?? '' } : {}),
    ...env,
  });
  const appOptions: AppOptions = { config, pgSchema, redisNamespace: `test-${suffix}`, logger: false };
  const app = await buildApp(appOptions);

  return {
    app,
    config,
    appOptions,
    dataDir,
    async close() {
      await app.close();
      if (pgSchema) await withPgClient((c) => c.query(`DROP SCHEMA ${pgSchema} CASCADE`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A short-lived connection to the test PostgreSQL server (schemas made and dropped around a test). */
export async function withPgClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
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
