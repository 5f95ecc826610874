import type { ByteRange } from '../../storage';
import { wellFormed } from './names';

/**
 * `Content-Disposition` with an ASCII fallback `filename` and the exact name in RFC 5987
 * `filename*`, so every browser saves the file under its real (possibly Chinese) name.
 */
export function contentDisposition(kind: 'attachment' | 'inline', stored: string): string {
  // encodeURIComponent throws on a lone surrogate (a name stored before names were checked).
  const name = wellFormed(stored);
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * One range of `Range: bytes=…` against an object of `size` bytes: the range, 'unsatisfiable'
 * (416), or null to send the whole object (no header, a syntax we ignore, or several ranges,
 * which RFC 9110 lets a server answer with the full content).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? Infinity : Number(match[2]);
  if (end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

// Shown in the browser when asked for; anything else (HTML, SVG, XML: active content on our
// origin) is always a download.
const INLINE_SAFE = /^(image\/(png|jpeg|gif|webp)|application\/pdf|text\/(plain|csv|tab-separated-values|markdown)|application\/(json|x-ndjson))$/;

export const canShowInline = (contentType: string) => INLINE_SAFE.test(contentType);

/** The Content-Type header for a stored type: text gets its charset (we only call valid UTF-8 text). */
export const contentTypeHeader = (contentType: string) =>
  /^text\/|^application\/(json|x-ndjson)$/.test(contentType) ? `${contentType}; charset=utf-8` : contentType;
