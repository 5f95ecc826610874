// Every request carries a timestamp-based X-Request-Id (spec §7) so a browser request can be found
// in the server's log line for it. The random tail keeps ids unique within one millisecond.

export function newRequestId(now: number = Date.now()): string {
  return `${now}-${Math.random().toString(36).slice(2, 10)}`;
}
