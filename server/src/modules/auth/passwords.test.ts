import { hashPassword, PASSWORD_HASHING, useCheapHashingInTests, verifyPassword } from './passwords';

/** A fresh copy of the module, as the server loads it: the test setup's switch is not in it. */
async function freshPasswordsModule(): Promise<typeof import('./passwords')> {
  let fresh!: typeof import('./passwords');
  await jest.isolateModulesAsync(async () => {
    fresh = await import('./passwords');
  });
  return fresh;
}

describe('password hashing', () => {
  it('hashes with argon2id at OWASP’s minimum cost outside the tests', async () => {
    const production = await freshPasswordsModule();
    expect(PASSWORD_HASHING).toEqual({ algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const stored = await production.hashPassword('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await production.verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await production.verifyPassword(stored, 'wrong horse battery')).toBe(false);
  });

  it('hashes cheaply in the tests, and verifies hashes of either cost', async () => {
    const cheap = await hashPassword('correct horse battery');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
    const production = await freshPasswordsModule();
    const costly = await production.hashPassword('correct horse battery');
    expect(await verifyPassword(costly, 'correct horse battery')).toBe(true);
    expect(await production.verifyPassword(cheap, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(null, 'correct horse battery')).toBe(false);
  });

  it('refuses to hash cheaply outside Jest', () => {
    const worker = process.env.JEST_WORKER_ID;
    delete process.env.JEST_WORKER_ID;
    try {
      expect(() => useCheapHashingInTests()).toThrow('Cheap password hashing is for tests only.');
    } finally {
      process.env.JEST_WORKER_ID = worker;
    }
  });
});
