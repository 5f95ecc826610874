import { hasMessage, translate, type Language } from '../i18n/messages';

/**
 * A run's log lines are kept language-neutral (decision 0069): a catalog key under
 * `server.runLog.` and its values, rendered in the reader's language when the compute details are
 * read. The English text is kept beside them for a key a later version no longer has.
 */
export type LogKey = `server.runLog.${string}`;

/** A value of a log line: plain (a file name, a count), another message, or a list ("a and b"). */
export type LogValue = string | number | LogMessage | readonly LogValue[];
export type LogValues = Readonly<Record<string, LogValue>>;

/** A line's own key is a `server.runLog.*` one; a value may be any server text (a step's stored error). */
export interface LogMessage {
  key: LogKey | `server.${string}`;
  values?: LogValues;
}

/** How a line is stored in `compute_jobs.log_lines` (a JSON array of these; rows before 0069 hold "ISO-time text" strings). */
export interface StoredLogLine {
  at: string;
  key: LogKey;
  values?: LogValues;
  /** The line in English when it was written. */
  text: string;
}

/** A line as served: when (null for an old line without a time) and its text in the reader's language. */
export interface LogLineOut {
  at: string | null;
  text: string;
}

type Translate = (key: string, values?: Record<string, string | number>) => string;

/** Longest plain value kept (an error text, a model's complaint); longest English text kept. */
const MAX_VALUE = 500;
const MAX_TEXT = 2000;

const isMessage = (value: LogValue): value is LogMessage => typeof value === 'object' && value !== null && !Array.isArray(value);

function renderValue(value: LogValue, t: Translate): string | number {
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (isMessage(value)) return renderMessage(value, t);
  const parts = (value as readonly LogValue[]).map((v) => String(renderValue(v, t)));
  // "a and b and c": the words between two items come from the catalog too.
  return parts.reduce((first, second) => t('server.runLog.and', { first, second }));
}

/** The message in the language `t` speaks; a key the catalogs lack (a message from elsewhere) shows the key. */
export function renderMessage(message: LogMessage, t: Translate): string {
  if (!hasMessage(message.key)) return message.key;
  const values = Object.fromEntries(Object.entries(message.values ?? {}).map(([name, v]) => [name, renderValue(v, t)]));
  return t(message.key, values);
}

export function logText(language: Language, key: LogMessage['key'], values?: LogValues): string {
  return renderMessage({ key, values }, (k, v) => translate(language, k, v));
}

/** Long plain values cut, so one line stays small. */
function trimmed(values: LogValues | undefined): LogValues | undefined {
  if (!values) return undefined;
  const trim = (v: LogValue): LogValue =>
    typeof v === 'string'
      ? v.slice(0, MAX_VALUE)
      : typeof v === 'number'
        ? v
        : isMessage(v)
          ? { key: v.key, ...(v.values ? { values: trimmed(v.values) } : {}) }
          : (v as readonly LogValue[]).map(trim);
  return Object.fromEntries(Object.entries(values).map(([name, v]) => [name, trim(v)]));
}

export function storedLogLine(at: string, key: LogKey, values?: LogValues): StoredLogLine {
  const kept = trimmed(values);
  return { at, key, ...(kept ? { values: kept } : {}), text: logText('en', key, kept).slice(0, MAX_TEXT) };
}

/** "2026-11-20T10:00:00.000Z Done: 3 record(s)", as lines were stored before 0069. */
const OLD_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) ([\s\S]*)$/;

/** A stored line (either form) for the reader: its time apart, its text in their language. */
export function logLineOut(line: unknown, t: Translate): LogLineOut {
  if (typeof line === 'string') {
    const old = OLD_LINE.exec(line);
    return old ? { at: old[1], text: old[2] } : { at: null, text: line };
  }
  const stored = line as Partial<StoredLogLine> | null;
  const at = typeof stored?.at === 'string' ? stored.at : null;
  const fallback = typeof stored?.text === 'string' ? stored.text : '';
  if (typeof stored?.key !== 'string' || !hasMessage(stored.key)) return { at, text: fallback };
  try {
    return { at, text: renderMessage({ key: stored.key, values: stored.values }, t) };
  } catch {
    return { at, text: fallback };
  }
}
