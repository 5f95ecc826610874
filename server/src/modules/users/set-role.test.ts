import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createTestApp, onPostgres, signedInUser, type TestApp } from '../../test/test-app';
import { setUserRole } from './set-role';

describe('roles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('setUserRole changes the role the API reports, and says when there is no such account', async () => {
    const { account, auth } = await signedInUser(t.app);
    expect(await setUserRole(t.app.db, account.email.toUpperCase(), 'support')).toBe(true);
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: auth })).json().role).toBe('support');
    expect(await setUserRole(t.app.db, 'nobody@example.com', 'admin')).toBe(false);
  });

  // The command itself, as an operator runs it, against the same SQLite file.
  (onPostgres() ? it.skip : it)('npm run user:role -- EMAIL admin makes an admin', async () => {
    const { account, auth } = await signedInUser(t.app);
    const root = path.resolve(__dirname, '../../../..');
    const run = (...args: string[]) =>
      execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'server/src/cli/user-role.ts'), ...args], {
        env: { ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      });
    expect(run(account.email, 'admin')).toContain('is now admin');
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: auth })).json().role).toBe('admin');
    expect(() => run(account.email, 'emperor')).toThrow(/usage/);
  });
});
