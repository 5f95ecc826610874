import { preparePgTemplate } from './test-databases';

/**
 * Global setup of the `server-postgres` project: the migrated PostgreSQL template is made here,
 * once, before any test file runs (see global-setup-sqlite.ts: the migrations take seconds on a
 * slow 2-core machine, too long for a test file's beforeAll).
 */
export default async function globalSetup() {
  await preparePgTemplate();
}
