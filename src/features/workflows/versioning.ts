// Optimistic concurrency (docs/architecture): every write to a workflow sends the version the
// screen shows as If-Match, so a change made meanwhile in another tab answers 409 instead of being
// overwritten. The 409's detail is shown by the notices; the write's invalidation refetches.

export function ifMatch(version: number | undefined): Record<string, string> | undefined {
  return version === undefined ? undefined : { 'If-Match': `"${version}"` };
}

/**
 * The newest version this tab has seen per workflow, from any answer. A refetch that left before a
 * write finished can bring an older copy into the cache for a moment; the next write must still
 * send the newest version it knows, or it would be refused as stale by our own earlier write.
 */
const knownVersions = new Map<string, number>();

export function noteVersion(workflowId: string, version: number | undefined): void {
  if (version === undefined) return;
  if (version > (knownVersions.get(workflowId) ?? 0)) knownVersions.set(workflowId, version);
}

export function newestVersion(workflowId: string, cached: number | undefined): number | undefined {
  const known = knownVersions.get(workflowId);
  if (known === undefined) return cached;
  return cached === undefined ? known : Math.max(known, cached);
}

/** Sends one write with the newest version known for the workflow (the editor's `write`). */
export type VersionedWrite = <T>(send: (version: number | undefined) => PromiseLike<T>) => Promise<T>;
