import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from 'jest';

// One Jest run, four projects: the React app in a DOM (web), the API server on a real SQLite file
// (server), its test files that reach a database or Redis again on PostgreSQL + Redis when
// TEST_DATABASE_URL is set (server-postgres), and the browser journeys in real Chromium (e2e).
// docs/testing.md says how the run is arranged to be quick.

// Node 20 cannot require() these ESM-only packages, so ts-jest compiles them too.
const esmPackages = [
  'react-intl',
  '@formatjs',
  'intl-messageformat',
  'msw',
  '@mswjs',
  '@open-draft',
  '@bundled-es-modules',
  'until-async',
  'rettime',
  'headers-polyfill',
  'outvariant',
  'strict-event-emitter',
  'is-node-process',
  'statuses',
  'content-disposition',
  'cookie',
  'eventsource-parser',
].join('|');

// Ignore node_modules except the ESM packages above, wherever npm nested them
// (e.g. light-my-request/node_modules/cookie).
const ignoreAllButEsm = [`/node_modules/(?!(${esmPackages})/)(?!.*/node_modules/)`];

// ts-jest only strips types (the tsconfigs it is given set isolatedModules): `npm run typecheck`
// checks the whole program once, in CI beside the tests, instead of ts-jest type-checking each test
// file's program again in every worker (~30 s of a small server test file's first minute).
// @swc/jest was measured too (docs/testing.md): 4% faster on the web project, level on the server's,
// not worth leaving the design card's ts-jest.
const tsJest = (tsconfig: string) => ['ts-jest', { tsconfig }] as [string, Record<string, unknown>];

const web: Config = {
  displayName: 'web',
  testEnvironment: '<rootDir>/src/test/jsdom-environment.cjs',
  roots: ['<rootDir>/src'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
  moduleNameMapper: {
    // import.meta.env exists only under Vite; tests read the same settings from a plain module.
    '^(.*)/config/env$': '$1/config/env.jest',
    // The build splits each catalog into the part of the first download and the rest
    // (vite.config.ts); tests read the whole flat file either way.
    '^(.*/i18n/[^/]+\\.json)\\?texts=(first|rest)$': '$1',
    '\\.(css|svg|png|jpg)$': '<rootDir>/src/test/file-stub.ts',
  },
  transform: { '^.+\\.(t|j)sx?$': tsJest('<rootDir>/src/tsconfig.jest.json'), '^.+\\.mjs$': tsJest('<rootDir>/src/tsconfig.jest.json') },
  transformIgnorePatterns: ignoreAllButEsm,
};

const serverBase: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/server/src'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)sx?$': tsJest('<rootDir>/server/tsconfig.json') },
  transformIgnorePatterns: ignoreAllButEsm,
};

/**
 * The server test files that reach PostgreSQL or Redis: the file, or a file it imports (relatively,
 * at any depth), names the test services (test/test-app, TEST_DATABASE_URL, TEST_REDIS_URL). The
 * others (the engine, parsers, the sandbox…) answer the same whatever the database, so they run in
 * the `server` project only instead of twice.
 */
function serverTestsUsingServices(): string[] {
  const names = /test\/test-app|TEST_DATABASE_URL|TEST_REDIS_URL|STEPWISE_TEST_DB/;
  const seen = new Map<string, boolean>();
  const usesServices = (file: string): boolean => {
    if (seen.has(file)) return seen.get(file)!;
    seen.set(file, false);
    const text = fs.readFileSync(file, 'utf8');
    const imports = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => path.resolve(path.dirname(file), m[1]));
    const found =
      names.test(text) ||
      imports.some((target) => {
        const resolved = [`${target}.ts`, path.join(target, 'index.ts')].find((candidate) => fs.existsSync(candidate));
        return resolved !== undefined && usesServices(resolved);
      });
    seen.set(file, found);
    return found;
  };
  const tests = (fs.readdirSync(path.join(__dirname, 'server/src'), { recursive: true }) as string[]).filter((name) => name.endsWith('.test.ts'));
  return tests.map((name) => path.join(__dirname, 'server/src', name)).filter(usesServices);
}

const serverSetup = '<rootDir>/server/src/test/setup.ts';

const server: Config = {
  ...serverBase,
  displayName: 'server',
  globalSetup: '<rootDir>/server/src/test/global-setup-sqlite.ts',
  setupFiles: ['<rootDir>/server/src/test/use-sqlite.ts', serverSetup],
};

const serverPostgres: Config = {
  ...serverBase,
  displayName: 'server-postgres',
  testMatch: serverTestsUsingServices(),
  globalSetup: '<rootDir>/server/src/test/global-setup-postgres.ts',
  setupFiles: ['<rootDir>/server/src/test/use-postgres.ts', serverSetup],
};

const e2e: Config = {
  displayName: 'e2e',
  testEnvironment: 'node',
  roots: ['<rootDir>/e2e'],
  testMatch: ['**/*.e2e.ts'],
  globalSetup: '<rootDir>/e2e/support/global-setup.ts',
  setupFiles: [serverSetup],
  transform: { '^.+\\.(t|j)sx?$': tsJest('<rootDir>/server/tsconfig.json') },
  transformIgnorePatterns: ignoreAllButEsm,
};

const config: Config = {
  projects: [web, server, ...(process.env.TEST_DATABASE_URL ? [serverPostgres] : []), e2e],
  // One worker per core. Jest's default (cores − 1) runs every file one after another on a 2-core
  // machine; the files are independent (own database, Redis prefix, port, temp folder).
  maxWorkers: os.availableParallelism(),
  testSequencer: '<rootDir>/e2e/support/journeys-last.cjs',
};

export default config;
