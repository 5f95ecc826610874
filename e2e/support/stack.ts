import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config/config';
import { launchBrowser } from './browser';

// The whole product for one journey file: the real Fastify server (API + the built web app) on a
// free port with a database of its own, and one Chromium. `useE2E()` is the single owner of
// their lifecycle; test files only describe what a user does.

/** Where global-setup built the web app. Jest hands globalSetup's env to the test processes; the
 *  fallback is the same path, for a file run without that setup (e.g. an editor's Jest runner). */
export function webDir(): string {
  const dir = process.env.E2E_WEB_DIR || path.resolve(__dirname, '../../.cache/e2e-web');
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`No built web app in ${dir}: run the journeys with \`npx jest --selectProjects e2e\` (its global setup builds it).`);
  }
  return dir;
}

export interface Stack {
  /** e.g. http://127.0.0.1:41234, no trailing slash. */
  baseUrl: string;
  app: FastifyInstance;
  /** DATA_DIR of this server: SQLite file, outbox/ with the mail it "sent". */
  dataDir: string;
  close(): Promise<void>;
}

/** Starts the real server in this process, listening on 127.0.0.1 on a free port. */
export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-e2e-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIR: webDir(),
    LOG_LEVEL: process.env.E2E_LOG_LEVEL || 'silent',
    IN_PROCESS_WORKER: 'false',
    ...env,
  });
  const app = await buildApp({ config });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  // The port is known only now. Links in emails are built from config.publicUrl per request, so
  // pointing it at the real origin here makes the reset link open this very server.
  config.publicUrl = env.PUBLIC_URL ?? baseUrl;

  return {
    baseUrl,
    app,
    dataDir,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface NewPageOptions {
  /** Browser language (navigator.language, Accept-Language); default en-US. */
  locale?: string;
}

export interface E2E {
  /** The running server; available inside tests and hooks, not at collection time. */
  readonly stack: Stack;
  readonly baseUrl: string;
  /** A page in a fresh browser context (own cookies and localStorage), 1280x800, relative URLs
   *  resolve against the server. Closed after the test. */
  newPage(options?: NewPageOptions): Promise<Page>;
  /** A Jest test that leaves a screenshot (and the browser console) in e2e/.artifacts when it
   *  fails, and that fails when a page of it broke the Content-Security-Policy. */
  test(name: string, fn: () => Promise<void>, timeout?: number): void;
}

export const ARTIFACTS_DIR = path.resolve(__dirname, '../.artifacts');
const JOURNEY_TIMEOUT_MS = 60_000;
/** Below the Jest timeout, so a stuck wait fails with Playwright's message (what it waited for)
 *  instead of Jest's bare timeout, and the failure screenshot shows the page at that moment. */
const ACTION_TIMEOUT_MS = 15_000;

const fileSafe = (text: string) =>
  text
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);

/**
 * Call once at the top of a journey file: registers the hooks that start the server and the
 * browser before the first test, give every test fresh contexts, and close it all after the last.
 */
export function useE2E(env: Record<string, string> | (() => Promise<Record<string, string>>) = {}): E2E {
  jest.setTimeout(JOURNEY_TIMEOUT_MS);

  let stack: Stack | null = null;
  let browser: Browser | null = null;
  let contexts: BrowserContext[] = [];
  /** Console errors and page errors per page, kept for the failure report. */
  const consoleLogs = new Map<Page, string[]>();
  /** Content-Security-Policy violations of the current test: any one fails it (see test()). */
  let cspViolations: string[] = [];
  let current: { passed: boolean } | null = null;

  beforeAll(async () => {
    // Sequentially: a failed server start must not leave a Chromium behind, and vice versa.
    // A function: the environment is known only once something else has started (a stand-in's port).
    stack = await startStack(typeof env === 'function' ? await env() : env);
    try {
      browser = await launchBrowser();
    } catch (err) {
      await stack.close();
      stack = null;
      throw err;
    }
  });

  afterEach(async () => {
    try {
      if (current && !current.passed) await saveArtifacts(expect.getState().currentTestName ?? 'unnamed');
    } finally {
      current = null;
      cspViolations = [];
      const closing = contexts;
      contexts = [];
      consoleLogs.clear();
      await Promise.all(closing.map((context) => context.close().catch(() => undefined)));
    }
  });

  afterAll(async () => {
    // Browser first: its keep-alive connections would otherwise hold the server's close.
    await browser?.close().catch(() => undefined);
    browser = null;
    await stack?.close();
    stack = null;
  });

  async function saveArtifacts(testName: string) {
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    const base = fileSafe(`${path.basename(expect.getState().testPath ?? 'e2e', '.e2e.ts')}--${testName}`);
    const pages = contexts.flatMap((context) => context.pages());
    for (const [i, page] of pages.entries()) {
      const name = pages.length > 1 ? `${base}--page${i + 1}` : base;
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true, timeout: 5_000 }).catch(() => undefined);
      const log = [`URL: ${page.url()}`, ...(consoleLogs.get(page) ?? [])].join('\n');
      fs.writeFileSync(path.join(ARTIFACTS_DIR, `${name}.log`), `${log}\n`);
    }
    process.stderr.write(`e2e: saved ${pages.length} failure screenshot(s) as ${path.join(ARTIFACTS_DIR, base)}*.png\n`);
  }

  const e2e: E2E = {
    get stack() {
      if (!stack) throw new Error('The e2e stack is not running: use it inside a test or hook.');
      return stack;
    },
    get baseUrl() {
      return e2e.stack.baseUrl;
    },
    async newPage({ locale = 'en-US' } = {}) {
      if (!browser) throw new Error('The browser is not running: use newPage() inside a test.');
      const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 }, baseURL: e2e.baseUrl });
      contexts.push(context);
      context.setDefaultTimeout(ACTION_TIMEOUT_MS);
      context.setDefaultNavigationTimeout(ACTION_TIMEOUT_MS);
      // The app must work under the server's Content-Security-Policy: the browser reports each
      // thing the policy blocked as a securitypolicyviolation event (and a console error).
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(
            `[csp-violation] ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} in ${event.sourceFile || event.documentURI}:${event.lineNumber}`,
          );
        });
      });
      const page = await context.newPage();
      const log: string[] = [];
      consoleLogs.set(page, log);
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') log.push(`[console.${message.type()}] ${message.text()}`);
        if (message.type() === 'error' && (message.text().startsWith('[csp-violation]') || /Content Security Policy/i.test(message.text()))) {
          cspViolations.push(`${page.url()}: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => log.push(`[pageerror] ${error.stack ?? error.message}`));
      page.on('requestfailed', (request) => log.push(`[requestfailed] ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`));
      return page;
    },
    test(name, fn, timeout) {
      test(
        name,
        async () => {
          const state = { passed: false };
          current = state;
          await fn();
          if (cspViolations.length > 0) {
            throw new Error(`The page broke the Content-Security-Policy:\n${[...new Set(cspViolations)].join('\n')}`);
          }
          state.passed = true;
        },
        timeout,
      );
    },
  };
  return e2e;
}
