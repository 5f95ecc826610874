import type { StepDraft } from './stepDrafts';

// Where step drafts (stepDrafts.ts) outlive a reload: the browser's localStorage, one entry per
// signed-in user. Bounded, because localStorage is small and shared by the whole site: at most
// MAX_DRAFTS drafts, none older than MAX_AGE_MS, at most MAX_TOTAL_CHARS in all; a single value
// above MAX_VALUE_CHARS (a pasted file) and secrets (API keys) are never written; they stay in
// memory for the session, and the page asks before a reload would lose them.

export const MAX_DRAFTS = 50;
export const MAX_VALUE_CHARS = 20_000;
export const MAX_TOTAL_CHARS = 1_000_000;
export const MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export type Drafts = Record<string, StepDraft>;

/** The key of a step's draft, in memory and in storage. */
export const draftKey = (workflowId: string, stepId: string) => `${workflowId}/${stepId}`;

const storageKey = (owner: string) => `stepwise.stepDrafts.${owner}`;

const tooLong = (value: unknown) => (JSON.stringify(value) ?? '').length > MAX_VALUE_CHARS;

/** The param values of a draft that may not be written (secrets, oversized values). */
function unstorableParams(draft: StepDraft): string[] {
  return Object.keys(draft.params).filter((name) => draft.secret?.includes(name) || tooLong(draft.params[name]));
}

/** Whether all of the draft can be written, that is whether a reload would keep all of it. */
export function fullyStorable(draft: StepDraft): boolean {
  return unstorableParams(draft).length === 0;
}

/** The draft as it may be written, or null when nothing of it may. */
export function storable(draft: StepDraft): StepDraft | null {
  const left = unstorableParams(draft);
  if (left.length === 0) return draft;
  const params = { ...draft.params };
  const base = { ...draft.base };
  for (const name of left) {
    delete params[name];
    delete base[name];
  }
  if (Object.keys(params).length === 0 && draft.name === undefined) return null;
  const { secret: _secret, ...rest } = draft;
  return { ...rest, params, base };
}

/** The newest drafts within the bounds (count, age, total size). */
export function withinBounds(drafts: Drafts, now: number): Drafts {
  const kept: Drafts = {};
  let total = 0;
  const newestFirst = Object.entries(drafts).sort(([, a], [, b]) => b.at - a.at);
  for (const [key, draft] of newestFirst) {
    if (Object.keys(kept).length >= MAX_DRAFTS || now - draft.at > MAX_AGE_MS) break;
    total += JSON.stringify(draft).length;
    if (total > MAX_TOTAL_CHARS) break;
    kept[key] = draft;
  }
  return kept;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalString = (v: unknown) => v === undefined || typeof v === 'string';

/** Storage is another program's input (an older version, a hand edit): keep only well-formed drafts. */
function wellFormed(key: string, v: unknown): v is StepDraft {
  return (
    isRecord(v) &&
    typeof v.workflowId === 'string' &&
    typeof v.stepId === 'string' &&
    key === draftKey(v.workflowId, v.stepId) &&
    isRecord(v.params) &&
    isRecord(v.base) &&
    Object.values(v.base).every((print) => typeof print === 'string') &&
    optionalString(v.name) &&
    optionalString(v.baseName) &&
    typeof v.at === 'number'
  );
}

function readAll(owner: string): Drafts {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(owner)) ?? '{}');
    if (!isRecord(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([key, draft]) => wellFormed(key, draft))) as Drafts;
  } catch {
    return {};
  }
}

/** The user's stored drafts, within the bounds. */
export function readDrafts(owner: string, now = Date.now()): Drafts {
  return withinBounds(readAll(owner), now);
}

/**
 * Writes the drafts that changed (null: gone), keeping the others as stored: another tab of the
 * same user writes its own drafts to the same entry, and must not lose them to this one.
 */
export function writeDrafts(owner: string, changes: Record<string, StepDraft | null>, now = Date.now()): void {
  const drafts = readAll(owner);
  for (const [key, draft] of Object.entries(changes)) {
    const kept = draft && storable(draft);
    if (kept) drafts[key] = kept;
    else delete drafts[key];
  }
  const bounded = withinBounds(drafts, now);
  try {
    if (Object.keys(bounded).length === 0) localStorage.removeItem(storageKey(owner));
    else localStorage.setItem(storageKey(owner), JSON.stringify(bounded));
  } catch {
    // Storage full or switched off (a private window): the drafts stay in memory for this session.
  }
}
