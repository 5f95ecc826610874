import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import ExcelJS from 'exceljs';
import { MAX_XLSX_PARTS, XlsxReadError, type XlsxJob } from './xlsx-limits';

/**
 * One sheet of an .xlsx read as its rows come and written as JSON Lines (xlsx-worker.ts runs this in
 * a worker thread). The zip is opened by its central directory (yauzl), so each part's declared size
 * is checked before it is parsed and only the parts needed are unpacked; the parts go through
 * exceljs's streaming WorkbookReader, piece by piece, instead of its own `parse()`, which reads the
 * zip front to back and copies every sheet met before the shared strings (Excel writes them after)
 * to a temporary file first. See decision 0063.
 */

/** A header or text cell longer than this is cut: Excel's own cell limit is 32,767 characters. */
export const MAX_CELL_CHARS = 32_767;

type Cell = string | number | boolean | null;

export function cellValue(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.slice(0, MAX_CELL_CHARS);
  if (value instanceof Date) {
    const iso = value.toISOString();
    // Excel keeps dates as days; one without a time of day is a DATE, not a midnight timestamp.
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
  }
  if (typeof value === 'object') {
    if ('result' in value) return cellValue((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
    if ('richText' in value)
      return value.richText
        .map((t) => t.text)
        .join('')
        .slice(0, MAX_CELL_CHARS);
    if ('text' in value) return String((value as ExcelJS.CellHyperlinkValue).text).slice(0, MAX_CELL_CHARS);
    if ('error' in value) return null;
  }
  return null;
}

/** Header cells as unique, non-empty column names (blank → column_N, repeats → name_2), compared without case as columns are. */
export function headerNames(cells: Cell[]): string[] {
  const seen = new Set<string>();
  return cells.map((cell, i) => {
    const base = cell === null || String(cell).trim() === '' ? `column_${i + 1}` : String(cell).trim().slice(0, 128);
    let name = base;
    for (let n = 2; seen.has(name.toLowerCase()); n++) name = `${base}_${n}`;
    seen.add(name.toLowerCase());
    return name;
  });
}

/** What of exceljs's WorkbookReader this reads through: its part parsers and what they fill in (exceljs 4.4.0, pinned). */
interface StreamingReader {
  workbookRels?: { Id: string; Target: string; Type: string }[];
  model?: { sheets?: { name: string; rId: string }[] };
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(chunks: AsyncIterable<string>, sheetNo: string): Generator<{ value: ExcelJS.stream.xlsx.WorksheetReader }>;
}

/** The zip's parts by name, each unpacked at most once and only after its declared size is checked against the bound. */
class Parts {
  private unpacked = 0;
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
    private readonly limit: number,
  ) {}

  static async open(file: string, limit: number): Promise<Parts> {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
    } catch (err) {
      throw unreadable(err);
    }
    if (zip.entryCount > MAX_XLSX_PARTS) {
      zip.close();
      throw new XlsxReadError({ code: 'tooManyParts', parts: zip.entryCount });
    }
    const entries = new Map<string, yauzl.Entry>();
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on('entry', (entry: yauzl.Entry) => {
          entries.set(entry.fileName, entry);
          zip.readEntry();
        });
        zip.once('end', resolve);
        zip.once('error', reject);
        zip.readEntry();
      });
    } catch (err) {
      zip.close();
      throw unreadable(err);
    }
    return new Parts(zip, entries, limit);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The part's bytes as they unpack; its declared size counts against the bound before it is opened. */
  async open(name: string): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new XlsxReadError({ code: 'unreadable', detail: `it has no ${name}` });
    this.unpacked += entry.uncompressedSize;
    if (this.unpacked > this.limit) throw new XlsxReadError({ code: 'unpackedTooLarge' });
    try {
      return await this.zip.openReadStreamPromise(entry);
    } catch (err) {
      throw unreadable(err);
    }
  }

  /** Declared size of a part (0 when absent). */
  size(name: string): number {
    return this.entries.get(name)?.uncompressedSize ?? 0;
  }

  close(): void {
    this.zip.close();
  }
}

const unreadable = (err: unknown) =>
  err instanceof XlsxReadError ? err : new XlsxReadError({ code: 'unreadable', detail: err instanceof Error ? err.message.slice(0, 200) : String(err) });

/** A part as text, decoded across chunks (exceljs decodes each chunk alone, breaking a character two chunks share). */
function text(stream: Readable): Readable {
  return stream.setEncoding('utf8');
}

/** A relationship's target as a part name: relative to xl/ unless it starts with /. */
const partName = (target: string) => (target.startsWith('/') ? target.slice(1) : path.posix.normalize(`xl/${target}`));

/**
 * Reads `job.sheet` (or the first sheet, in the workbook's order) into `job.out`: the first row with
 * a value names the columns, empty rows are skipped, at most `job.limit` records. Throws
 * XlsxReadError; `progress` hears the records written so far and an estimate of all.
 */
export async function readSheet(job: XlsxJob, progress: (rows: number, total: number | null) => void): Promise<{ rows: number; header: string[] }> {
  const { limits } = job;
  const parts = await Parts.open(job.file, limits.unpackedBytes);
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(job.file, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      // Styles tell a date from a number (its number format); hyperlinks are read as their text.
      styles: 'cache',
      hyperlinks: 'ignore',
    }) as unknown as StreamingReader;
    try {
      await reader._parseRels(text(await parts.open('xl/_rels/workbook.xml.rels')));
      await reader._parseWorkbook(text(await parts.open('xl/workbook.xml')));
    } catch (err) {
      throw unreadable(err);
    }
    const rels = reader.workbookRels ?? [];
    const relOf = (type: string) => rels.find((r) => r.Type.endsWith(`/${type}`));
    const sheets = (reader.model?.sheets ?? []).flatMap((s) => {
      const rel = rels.find((r) => r.Id === s.rId && r.Type.endsWith('/worksheet'));
      return rel ? [{ name: s.name, part: partName(rel.Target) }] : [];
    });
    const sheet = job.sheet ? sheets.find((s) => s.name === job.sheet) : sheets[0];
    if (!sheet) throw new XlsxReadError(job.sheet ? { code: 'noSheet', sheet: job.sheet, names: sheets.map((s) => s.name) } : { code: 'noSheets' });
    const shared = partName(relOf('sharedStrings')?.Target ?? 'sharedStrings.xml');
    const styles = partName(relOf('styles')?.Target ?? 'styles.xml');
    try {
      // With sharedStrings: 'cache' this yields nothing: running it fills the table.
      if (parts.has(shared)) for await (const none of reader._parseSharedStrings(text(await parts.open(shared)))) void none;
      if (parts.has(styles)) await reader._parseStyles(text(await parts.open(styles)));
    } catch (err) {
      throw unreadable(err);
    }
    const declared = parts.size(sheet.part);
    let unpacked = 0;
    // Decoded here rather than by exceljs, which decodes each chunk alone and so breaks a character
    // that two chunks share; counted for the progress estimate.
    async function* decoded(chunks: Readable): AsyncGenerator<string> {
      const decoder = new TextDecoder('utf-8');
      for await (const chunk of chunks as AsyncIterable<Buffer>) {
        unpacked += chunk.length;
        yield decoder.decode(chunk, { stream: true });
      }
      const rest = decoder.decode();
      if (rest) yield rest;
    }
    const [{ value: worksheet }] = [...reader._parseWorksheet(decoded(await parts.open(sheet.part)), '1')];
    return await writeRecords(job, worksheet, (rows) => progress(rows, unpacked ? Math.max(rows, Math.round((rows * declared) / unpacked)) : null));
  } finally {
    parts.close();
  }
}

/** The rows as JSON Lines, within the row, column, cell and output bounds. */
async function writeRecords(job: XlsxJob, worksheet: ExcelJS.stream.xlsx.WorksheetReader, progress: (rows: number) => void) {
  const { limits } = job;
  const out = fs.createWriteStream(job.out);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  let header: string[] | null = null;
  let rows = 0;
  let seen = 0;
  let cells = 0;
  let bytes = 0;
  try {
    for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
      if (++seen > limits.rows) throw new XlsxReadError({ code: 'tooManyRows' });
      const width = row.cellCount;
      if (width > limits.columns) throw new XlsxReadError({ code: 'tooManyColumns' });
      cells += width;
      if (cells > limits.cells) throw new XlsxReadError({ code: 'tooManyCells' });
      const values: Cell[] = [];
      for (let c = 1; c <= (header?.length ?? width); c++) values.push(cellValue(row.findCell(c)?.value));
      if (values.every((v) => v === null)) continue;
      if (!header) {
        header = headerNames(values);
        continue;
      }
      if (rows >= job.limit) break;
      const record: Record<string, Cell> = {};
      header.forEach((name, i) => (record[name] = values[i]));
      const line = `${JSON.stringify(record)}\n`;
      bytes += Buffer.byteLength(line);
      if (bytes > limits.recordBytes) throw new XlsxReadError({ code: 'recordsTooLarge' });
      await write(line);
      if (++rows % 1000 === 0) progress(rows);
    }
  } finally {
    await new Promise<void>((resolve) => out.end(resolve));
  }
  if (!header) throw new XlsxReadError({ code: 'empty' });
  return { rows, header };
}
