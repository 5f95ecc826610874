/**
 * One page of a JSON API's answer read into JSON Lines (import_http_json): the text parsed, the
 * records found at their path written one a line, and where the next page is. Pure, so it runs
 * alike on the step's thread for small pages and in a worker thread (json-page-worker.ts) for large
 * ones: a 10 MB answer takes about 0.3 s to parse and write out, time the API's event loop would
 * otherwise answer no one in (decision 0070).
 */

export const PAGE_PAGINATIONS = ['none', 'page', 'cursor', 'next_link'] as const;

export interface PageJob {
  recordsPath: string;
  pagination: (typeof PAGE_PAGINATIONS)[number];
  /** cursor: where the next cursor is; next_link: where the next address is ('' : the Link header, read by the step). */
  nextPath: string;
  /** The most records to write from this page (the sample size or the step's bound, less what earlier pages wrote). */
  limit: number;
}

export type PageResult =
  | {
      ok: true;
      /** Records the page lists (whether or not all were written): page numbering stops at an empty page. */
      listed: number;
      written: number;
      /** The records written, one JSON object a line, each line ending in a newline. */
      lines: string;
      /** cursor: the next cursor as text; next_link with a path: the next address; otherwise null. */
      next: string | null;
    }
  | { ok: false; reason: 'notJson' | 'nothingAtPath' };

/** `data.items` → body.data.items; '' → the body; a missing step → undefined. */
export function atPath(body: unknown, dotted: string): unknown {
  let value = body;
  for (const key of dotted.split('.').filter(Boolean)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = Array.isArray(value) ? value[Number(key)] : (value as Record<string, unknown>)[key];
  }
  return value;
}

export function readPage(bytes: Uint8Array, job: PageJob): PageResult {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    // A server that labels broken text as JSON did not answer JSON.
    return { ok: false, reason: 'notJson' };
  }
  const found = atPath(body, job.recordsPath);
  if (found === undefined) return { ok: false, reason: 'nothingAtPath' };
  const list = Array.isArray(found) ? found : [found];
  const lines: string[] = [];
  for (const item of list) {
    if (lines.length >= job.limit) break;
    // A record that is not an object (a list of names) becomes {"value": …}.
    lines.push(JSON.stringify(item !== null && typeof item === 'object' && !Array.isArray(item) ? item : { value: item }));
  }
  let next: string | null = null;
  if (job.pagination === 'cursor') {
    const cursor = atPath(body, job.nextPath);
    next = cursor === null || cursor === undefined || cursor === '' ? null : String(cursor);
  } else if (job.pagination === 'next_link' && job.nextPath) {
    const link = atPath(body, job.nextPath);
    next = typeof link === 'string' && link ? link : null;
  }
  return { ok: true, listed: list.length, written: lines.length, lines: lines.length ? `${lines.join('\n')}\n` : '', next };
}
