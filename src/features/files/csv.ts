// The first rows of a CSV file for the preview. The text may be cut anywhere (it comes from a
// Range request of the first bytes), so a row left unfinished at the end is dropped.

export interface CsvPreview {
  rows: string[][];
  /** More data exists beyond the rows answered (cut text or the row limit). */
  truncated: boolean;
  delimiter: string;
}

/** Comma, semicolon, tab or pipe: whichever splits the first line into the most fields. */
export function detectDelimiter(text: string): string {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t', '|']) {
    // Outside quotes only.
    let count = 0;
    let quoted = false;
    for (const ch of firstLine) {
      if (ch === '"') quoted = !quoted;
      else if (ch === candidate && !quoted) count += 1;
    }
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/**
 * RFC 4180 with the usual tolerance: quoted fields may hold delimiters, doubled quotes and line
 * breaks; CRLF or LF; a BOM is skipped. `complete` says the text is the whole file.
 */
export function parseCsv(text: string, options: { maxRows?: number; complete?: boolean; delimiter?: string } = {}): CsvPreview {
  const { maxRows = 50, complete = true } = options;
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const delimiter = options.delimiter ?? detectDelimiter(source);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  let rowStarted = false;
  while (i < source.length) {
    const ch = source[i];
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += ch;
      }
      i += 1;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      rowStarted = true;
    } else if (ch === delimiter) {
      row.push(field);
      field = '';
      rowStarted = true;
    } else if (ch === '\n' || ch === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      rowStarted = false;
      if (ch === '\r' && source[i + 1] === '\n') i += 1;
      if (rows.length > maxRows) break;
    } else {
      field += ch;
      rowStarted = true;
    }
    i += 1;
  }
  const reachedEnd = i >= source.length;
  if (reachedEnd && rowStarted && complete && !quoted) {
    row.push(field);
    rows.push(row);
  }
  const truncated = rows.length > maxRows || !reachedEnd || !complete;
  return { rows: rows.slice(0, maxRows), truncated, delimiter };
}
