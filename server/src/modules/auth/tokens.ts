import { createHash, randomBytes } from 'node:crypto';

/**
 * Bearer and reset tokens: 256 random bits, handed out once; only their SHA-256 is stored, so a
 * leaked database does not leak usable tokens. (A plain hash suffices: the input is random, not a
 * password.)
 */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
