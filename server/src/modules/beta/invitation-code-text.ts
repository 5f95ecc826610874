import { randomInt } from 'node:crypto';

/** Letters and digits nobody misreads or mistypes: no 0/O, 1/I/L. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/**
 * `STEP-7K2M-Q9XD`: eight characters drawn uniformly by the system's CSPRNG (about 40 bits), so a
 * code cannot be guessed within the sign-up rate limit; grouped so it can be read out and typed.
 */
export function newCodeText(): string {
  const pick = () => Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `STEP-${pick()}-${pick()}`;
}

/** What people type: any case, with spaces around or inside. Stored codes are upper case. */
export const normalizeCode = (typed: string): string => typed.replace(/\s+/g, '').toUpperCase();
