import { hash, verify } from '@node-rs/argon2';

// Argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): strong against GPU
// guessing while a login still costs only a few milliseconds of one core. The literal 2 is
// Algorithm.Argon2id: a const enum that esbuild (tsx) cannot inline from a .d.ts.
export const PASSWORD_HASHING = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

let options = PASSWORD_HASHING;

export const hashPassword = (password: string): Promise<string> => hash(password, options);

let decoyHash: Promise<string> | null = null;

/**
 * Checks a password. With no stored hash (unknown email) it still verifies against a decoy, so an
 * answer's timing does not tell whether the account exists.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    decoyHash ??= hashPassword('decoy password that never matches');
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}

/**
 * Tests only (server/src/test/setup.ts): argon2id at a trivial cost (256 KiB, 1 pass). The suites
 * sign up and in a few hundred times, and production's cost is paid twice each time for nothing a
 * test checks. A stored hash carries its own parameters, so hashes of either cost verify alike.
 * Refused outside Jest, so no deployment can weaken its hashes through it.
 */
export function useCheapHashingInTests(): void {
  if (!process.env.JEST_WORKER_ID) throw new Error('Cheap password hashing is for tests only.');
  options = { ...PASSWORD_HASHING, memoryCost: 256, timeCost: 1 };
  decoyHash = null;
}
