import { hash, verify } from '@node-rs/argon2';

// Argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): strong against GPU
// guessing while a login still costs only a few milliseconds of one core. The literal 2 is
// Algorithm.Argon2id: a const enum that esbuild (tsx) cannot inline from a .d.ts.
const options = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

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
