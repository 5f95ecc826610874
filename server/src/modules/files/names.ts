import { invalid } from '../../lib/errors';

/**
 * File and folder names are display text only: storage keys are server-made ids, so a name can
 * never reach a path. Still, names end up in zip entries, Content-Disposition headers and other
 * people's file systems, so they are kept plain: no separators (nor their Unicode look-alikes),
 * no `..`, no control or bidirectional-override characters, trimmed, at most 255 characters.
 */
export const MAX_NAME_LENGTH = 255;

// `/` and `\` and the characters that render like them (fraction slash, division slash, set minus,
// reverse solidus operator, big solidi, small and full-width forms).
const SEPARATORS = /[/\\\u2044\u2215\u2216\u29F5\u29F8\u29F9\uFE68\uFF0F\uFF3C]/g;
// C0, DEL, C1, and invisible direction marks/overrides that can disguise an extension.
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const INVISIBLE = /[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

const codePoints = (s: string) => Array.from(s);

function truncate(name: string): string {
  const chars = codePoints(name);
  if (chars.length <= MAX_NAME_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  const stem = codePoints(name.slice(0, name.length - ext.length));
  return stem.slice(0, MAX_NAME_LENGTH - codePoints(ext).length).join('').trimEnd() + ext;
}

/**
 * The name an uploaded file is stored under. Browsers send a bare name, some send a path (folder
 * uploads, old browsers): only its last part counts. Never refuses: whatever arrives is cleaned.
 */
export function cleanUploadedName(raw: string, fallback = 'file'): string {
  const last = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = last
    .replace(INVISIBLE, '')
    .replace(SEPARATORS, '_')
    .replace(/\.{2,}/g, '.')
    .trim();
  return /^\.*$/.test(cleaned) ? fallback : truncate(cleaned);
}

/**
 * A name a person typed (new folder, rename): refused rather than silently changed, so what they
 * see is what they asked for.
 */
export function checkTypedName(raw: string, loc: (string | number)[] = ['body', 'name']): string {
  const name = raw.normalize('NFC').trim();
  const bad = !name || /^\.+$/.test(name) || name.includes('..') || new RegExp(SEPARATORS.source).test(name) || new RegExp(INVISIBLE.source).test(name);
  if (bad || codePoints(name).length > MAX_NAME_LENGTH) throw invalid('server.files.invalidName', loc, { max: MAX_NAME_LENGTH });
  return name;
}

/** `report.csv`, 2 → `report (2).csv` (the extension is the part after the last dot). */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const suffix = ` (${n})`;
  const room = MAX_NAME_LENGTH - codePoints(suffix + ext).length;
  return codePoints(stem).slice(0, room).join('') + suffix + ext;
}

/** The first of `name`, `name (1)`, `name (2)`… that is not taken. */
export function firstFreeName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 1; ; n++) {
    const candidate = numberedName(name, n);
    if (!taken.has(candidate)) return candidate;
  }
}

/** The part of a name before ` (n)` and the extension, for finding the names that compete with it. */
export function nameStem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}
