import { DomainError } from '../../lib/errors';
import type { StateReason } from '../../db/tables/runs';

export { STATE_REASONS, type StateReason } from '../../db/tables/runs';

/**
 * Why a run or step run is paused, failed or cancelled, kept beside its state (migration 016) so
 * whoever reads it is told why and what to do, not just "Paused":
 *
 *   paused     by_user (its owner paused it) | credits (the balance ran out; a top-up resumes it)
 *   cancelled  by_user
 *   failed     worker_lost (its worker died MAX_LOST_WORKERS times) | limit (a limit was reached)
 *              | error (anything else); the text is the stored `error`
 *
 * Every state change names its reason or clears it (RunsRepository), so a resume or retry never
 * leaves an old reason behind.
 */

/** A step run whose worker died this many times in one attempt fails (worker_lost) instead of taking down another. */
export const MAX_LOST_WORKERS = 3;

/**
 * Failures that are a limit reached rather than a fault: the sandbox's time, memory and size limits,
 * outbound calls' size, time and redirect limits, files' size and the storage quota, Excel's sheet
 * limits and the webhook's body limit. Their texts name the limit and what to do.
 */
const LIMIT_KEYS: ReadonlySet<string> = new Set([
  'server.sandbox.timeout',
  'server.sandbox.memory',
  'server.sandbox.stack',
  'server.sandbox.outputTooLarge',
  'server.sandbox.inputTooLarge',
  'server.http.timeout',
  'server.http.tooLarge',
  'server.http.tooManyRedirects',
  'server.files.fileTooLarge',
  'server.files.quotaExceeded',
  'server.steps.webhookTooLarge',
  'server.steps.xlsxTooManyRows',
  'server.steps.xlsxReadFileTooLarge',
  'server.steps.xlsxReadUnpackedTooLarge',
  'server.steps.xlsxReadTooManyRows',
  'server.steps.xlsxReadTooManyColumns',
  'server.steps.xlsxReadTooManyCells',
  'server.steps.xlsxReadRecordsTooLarge',
]);

export const limitKeys = (): string[] => [...LIMIT_KEYS];

/**
 * A step's failure as a reason: `limit` when it, or what caused it (a code step's failure wraps the
 * sandbox's), is a limit reached; else `error`. Keys are read from DomainError (`messageKey`) and
 * from the sandbox's and outbound calls' errors (`key`).
 */
export function failureReason(err: unknown): Extract<StateReason, 'limit' | 'error'> {
  const seen = new Set<unknown>();
  for (let e = err; e && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    if (e instanceof DomainError && (e.kind === 'too_large' || LIMIT_KEYS.has(e.messageKey))) return 'limit';
    const key = (e as { key?: unknown }).key;
    if (typeof key === 'string' && LIMIT_KEYS.has(key)) return 'limit';
  }
  return 'error';
}
