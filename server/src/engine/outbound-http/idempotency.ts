import { createHash } from 'node:crypto';

/**
 * Idempotency keys for the calls steps make (ARCHITECTURE.md, fixed decision 10; decision 0062).
 * A key is derived, never drawn at random: it is a hash of the step run's id and the `_id`s of the
 * records one request carries, so every attempt at that request (a retry after a 503, a batch
 * redone after a crash, a resumed or retried step run) sends the same key, and a receiver that
 * honours `Idempotency-Key` does the work once. Another step run (a new run of the workflow) or
 * other records get another key.
 */

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * The key for a request of step run `stepRunId` carrying the records `recordIds` (in the order it
 * carries them): SHA-256 over length-prefixed parts (so no two lists of ids can run together into
 * the same text), shaped like a version 4 UUID, which receivers that check a key's form accept.
 */
export function idempotencyKey(stepRunId: string, recordIds: Iterable<string>): string {
  // One update of the whole text: a hash update per part cost more than the hashing itself.
  let text = `stepwise-idempotency-key/1\n${stepRunId.length}:${stepRunId}\n`;
  for (const id of recordIds) text += `${id.length}:${id}\n`;
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** What names a record in a key: its `_id`, or (a record without one) its values, which an immutable input keeps the same. */
export function recordKeyPart(record: Record<string, unknown>, idColumn: string): string {
  const id = record[idColumn];
  return typeof id === 'string' && id !== '' ? id : JSON.stringify(record);
}

/** True when `headers` already hold an Idempotency-Key, whatever its case: the step's own header wins over ours. */
export function hasIdempotencyKey(headers: Readonly<Record<string, string>>): boolean {
  const name = IDEMPOTENCY_KEY_HEADER.toLowerCase();
  return Object.keys(headers).some((h) => h.toLowerCase() === name);
}
