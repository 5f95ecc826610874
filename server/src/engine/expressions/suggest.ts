/** More edits than this and it is another name, not a typo. */
const MAX_EDITS = 3;

/**
 * "Did you mean …?" for a column name that does not exist: the name among `candidates` closest to
 * `typed` (letters' case ignored, as DuckDB matches names), when it is close enough to be a typo —
 * at most one edit per three letters, and three in all (an extra, missing or wrong letter, or two
 * letters swapped); on a tie the first candidate. Null when nothing is that close. Pure, so the editor's settings
 * form and the server say the same.
 */
export function closestName(typed: string, candidates: readonly string[]): string | null {
  const wanted = typed.trim().toLowerCase();
  if (!wanted) return null;
  const limit = Math.min(MAX_EDITS, Math.max(1, Math.floor(wanted.length / 3)));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase(), bestDistance - 1);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Edits from `a` to `b` (optimal string alignment: insert, delete, replace, swap two neighbours),
 * or `limit + 1` once it is known to exceed `limit`. Only the diagonal band a result within
 * `limit` can cross is computed, so a long name costs its length times the limit.
 */
function editDistance(a: string, b: string, limit: number): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  let beforePrevious = new Array<number>(b.length + 1).fill(over);
  let previous = new Array<number>(b.length + 1).fill(over);
  let current = new Array<number>(b.length + 1).fill(over);
  for (let j = 0; j <= Math.min(b.length, limit); j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const low = Math.max(1, i - limit);
    const high = Math.min(b.length, i + limit);
    // The band's edges: what the next rows read just outside it.
    current[low - 1] = low === 1 && i <= limit ? i : over;
    if (high < b.length) current[high + 1] = over;
    let rowBest = current[low - 1];
    for (let j = low; j <= high; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, beforePrevious[j - 2] + 1);
      current[j] = Math.min(d, over);
      rowBest = Math.min(rowBest, current[j]);
    }
    if (rowBest > limit) return over;
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  return previous[b.length];
}
