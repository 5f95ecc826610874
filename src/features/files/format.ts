import type { IconType } from 'react-icons';
import { LuFile, LuFileArchive, LuFileCode, LuFileImage, LuFileJson, LuFileSpreadsheet, LuFileText } from 'react-icons/lu';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.5 KB" (binary multiples, as file managers show them). */
export function formatBytes(bytes: number, locale = 'en'): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${UNITS[unit]}`;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export type PreviewKind = 'image' | 'pdf' | 'csv' | 'text' | 'none';

const TEXT_EXTENSIONS = new Set(['txt', 'md', 'json', 'jsonl', 'ndjson', 'log', 'xml', 'yaml', 'yml', 'ini', 'toml', 'sql', 'py', 'js', 'ts', 'html', 'css']);
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

/** What the preview can show for a file; the server's sniffed type wins over the extension. */
export function previewKind(name: string, contentType: string): PreviewKind {
  const ext = extensionOf(name);
  if (IMAGE_TYPES.has(contentType)) return 'image';
  if (contentType === 'application/pdf') return 'pdf';
  if (ext === 'csv' || ext === 'tsv' || contentType === 'text/csv' || contentType === 'text/tab-separated-values') return 'csv';
  // SVG is never drawn: it can carry script.
  if (contentType.startsWith('text/') || contentType === 'application/json' || TEXT_EXTENSIONS.has(ext)) return 'text';
  return 'none';
}

export function fileIcon(name: string, contentType: string): IconType {
  const ext = extensionOf(name);
  if (contentType.startsWith('image/')) return LuFileImage;
  if (['csv', 'tsv', 'xlsx', 'xls', 'parquet'].includes(ext)) return LuFileSpreadsheet;
  if (['json', 'jsonl', 'ndjson'].includes(ext)) return LuFileJson;
  if (['zip', 'gz', 'tar', '7z'].includes(ext)) return LuFileArchive;
  if (['js', 'ts', 'py', 'sql', 'html', 'css', 'xml'].includes(ext)) return LuFileCode;
  if (contentType.startsWith('text/') || contentType === 'application/pdf') return LuFileText;
  return LuFile;
}

/** The tone of a file type's tile, so a grid of files is easy to scan. */
export function fileTone(name: string, contentType: string): string {
  const ext = extensionOf(name);
  if (contentType.startsWith('image/')) return 'pink';
  if (['csv', 'tsv', 'xlsx', 'xls', 'parquet'].includes(ext)) return 'green';
  if (contentType === 'application/pdf') return 'red';
  if (['json', 'jsonl', 'ndjson', 'js', 'ts', 'py', 'sql'].includes(ext)) return 'orange';
  return 'gray';
}
