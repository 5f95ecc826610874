import type { JobQueue } from '../jobs/queue/job-queue';

/**
 * Waits for what a test expects to happen, instead of sleeping a fixed time: polls `condition`
 * until it holds, and fails naming `what` after `timeoutMs`.
 */
export async function waitUntil(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Resolves once `jobs` has no job of `name` waiting, delayed or running. From then on nothing of
 * `name` runs until something is enqueued, so a test may say that something did not happen.
 */
export function queueDrained(jobs: JobQueue, name: string, timeoutMs?: number): Promise<void> {
  return waitUntil(`the ${name} jobs to drain`, async () => (await jobs.unfinished(name)) === 0, timeoutMs);
}
