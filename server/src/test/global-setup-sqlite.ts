import { prepareSqliteTemplate } from './test-databases';

/**
 * Global setup of the `server` project: the migrated SQLite template the test apps copy is made
 * here, once, before any test file runs. Left to the first test app, the migrations fell inside
 * that file's beforeAll and its 5 s limit, and the other worker waited on them inside its own.
 */
export default async function globalSetup() {
  await prepareSqliteTemplate();
}
