import { invalid } from '../../lib/errors';

/**
 * File and folder names are display text only: storage keys are server-made ids, so a name can
 * never reach a path, whatever the storage backend. Still, names end up in zip entries,
 * Content-Disposition headers and other people's file systems, so every name that enters (a new
 * folder, a rename, a multipart upload's filename, a direct upload, a zip's name) passes the one
 * check below, and is refused rather than silently changed: no separators (nor their Unicode
 * look-alikes), no `:` (so no drive letter: `C:`, `D:evil.txt`), no `..`, no control or
 * bidirectional-override characters, no lone UTF-16 surrogates, trimmed, at most 255 characters.
 */
export const MAX_NAME_LENGTH = 255;

// `/` and `\` and the characters that render like them (fraction slash, division slash, set minus,
// reverse solidus operator, big solidi, small and full-width forms), and `:` (drive letters,
// alternate data streams; the full-width `：` of Chinese text is no separator anywhere and stays).
const SEPARATORS = /[/\\\u2044\u2215\u2216\u29F5\u29F8\u29F9\uFE68\uFF0F\uFF3C:]/g;
// C0, DEL, C1, and invisible direction marks/overrides that can disguise an extension.
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const INVISIBLE = /[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
// Half of a surrogate pair without its other half: not text, and encodeURIComponent throws on it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const codePoints = (s: string) => Array.from(s);
const test = (pattern: RegExp, s: string) => new RegExp(pattern.source).test(s);

/** `s` with each lone surrogate replaced by U+FFFD, as TextEncoder would: always well-formed text. */
export const wellFormed = (s: string) => s.replace(LONE_SURROGATE, '\uFFFD');

/**
 * The name, NFC-normalised and trimmed, or a 422 `{errors: [{msg, loc}]}` at `loc` (the request's
 * field: `["body", "name"]`, a multipart part's field name) when it is not allowed.
 */
export function checkName(raw: string, loc: (string | number)[] = ['body', 'name']): string {
  const name = test(LONE_SURROGATE, raw) ? '' : raw.normalize('NFC').trim();
  const bad = !name || /^\.+$/.test(name) || name.includes('..') || test(SEPARATORS, name) || test(INVISIBLE, name);
  if (bad || codePoints(name).length > MAX_NAME_LENGTH) throw invalid('server.files.invalidName', loc, { max: MAX_NAME_LENGTH });
  return name;
}

function truncate(name: string): string {
  const chars = codePoints(name);
  if (chars.length <= MAX_NAME_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  const stem = codePoints(name.slice(0, name.length - ext.length));
  return (
    stem
      .slice(0, MAX_NAME_LENGTH - codePoints(ext).length)
      .join('')
      .trimEnd() + ext
  );
}

/**
 * A stored name as a zip entry: names checked by `checkName` pass unchanged; one stored before that
 * check existed (`C:evil.txt`, a lone surrogate) is made safe instead of breaking the download, since
 * the zip cannot refuse what is already there.
 */
export function zipEntryName(stored: string, fallback = 'file'): string {
  const cleaned = wellFormed(stored)
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(SEPARATORS, '_')
    .replace(/\.{2,}/g, '.')
    .trim();
  return /^\.*$/.test(cleaned) ? fallback : truncate(cleaned);
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
