/**
 * The content type of an upload, from its first bytes (what the client claims is ignored): magic
 * numbers for binary formats, the extension to tell text formats and zip-based office files apart.
 */
export const SNIFF_BYTES = 4100;

const startsWith = (head: Buffer, bytes: number[], offset = 0) => bytes.every((b, i) => head[offset + i] === b);
const ascii = (head: Buffer, text: string, offset = 0) => head.subarray(offset, offset + text.length).toString('latin1') === text;

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

const TEXT_TYPES: Record<string, string> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  ndjson: 'application/x-ndjson',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  js: 'text/javascript',
  css: 'text/css',
  sql: 'application/sql',
};

const ZIP_TYPES: Record<string, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** Valid UTF-8 with no NUL bytes (a multi-byte character cut at the end of the sample is allowed). */
function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head);
    return true;
  } catch {
    // The sample may end inside a character: retry without its last three bytes.
    if (head.length < 4) return false;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - 3));
      return true;
    } catch {
      return false;
    }
  }
}

export function sniffContentType(head: Buffer, name: string): string {
  const ext = extensionOf(name);
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(head, 'GIF87a') || ascii(head, 'GIF89a')) return 'image/gif';
  if (ascii(head, 'RIFF') && ascii(head, 'WEBP', 8)) return 'image/webp';
  if (ascii(head, '%PDF-')) return 'application/pdf';
  if (ascii(head, 'PAR1')) return 'application/vnd.apache.parquet';
  if (startsWith(head, [0x1f, 0x8b])) return 'application/gzip';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return ZIP_TYPES[ext] ?? 'application/zip';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return ext === 'xls' ? 'application/vnd.ms-excel' : 'application/x-ole-storage';
  if (ascii(head, 'SQLite format 3\u0000')) return 'application/vnd.sqlite3';
  if (head.length === 0) return TEXT_TYPES[ext] ?? 'application/octet-stream';
  if (looksLikeText(head)) return TEXT_TYPES[ext] ?? 'text/plain';
  return 'application/octet-stream';
}
