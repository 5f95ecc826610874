import fs from 'node:fs';
import { sqlString } from '../datasets/sql';
import type { DatasetMetadata } from '../datasets';
import type { ParamValues } from '../params';
import { StepRunFailed } from '../runners/execute';
import type { RunContext } from '../runners/types';
import { enumOf, nothingToRemove, readFailure, writeFileRead, type Explain, type FileRead } from './source-dataset';

/**
 * Reading a CSV file with DuckDB the way people expect: the delimiter guessed from the first line
 * (DuckDB's sniffer would read a ragged file as one column), strict about lines of another width
 * (naming the line), headerless columns named column_1…, and what the sniffer found pinned for a
 * deferred read. import_csv, import_file and import_folder read CSV through here.
 */

export const DELIMITERS = { auto: null, comma: ',', semicolon: ';', tab: '\t', pipe: '|' } as const;
/** Our param values → DuckDB's read_csv `encoding` names (DuckDB 1.5 transcodes these itself). */
export const ENCODINGS = { 'utf-8': 'utf-8', latin1: 'latin-1', 'utf-16le': 'utf-16' } as const;

export interface CsvOptions {
  delimiter: keyof typeof DELIMITERS;
  hasHeader: boolean;
  encoding: keyof typeof ENCODINGS;
}

/**
 * The table expression reading a CSV. Strict: a line with more or fewer fields than the header
 * fails the step naming the line (DuckDB's message) instead of silently shifting values.
 */
export function csvScan(filePath: string, options: CsvOptions, names?: string[]): string {
  const delimiter = DELIMITERS[options.delimiter];
  const parts = [
    sqlString(filePath),
    `header = ${options.hasHeader}`,
    `encoding = ${sqlString(ENCODINGS[options.encoding])}`,
    'strict_mode = true',
    'null_padding = false',
    'sample_size = 20480',
  ];
  if (delimiter) parts.push(`delim = ${sqlString(delimiter)}`);
  if (names) parts.push(`names = [${names.map(sqlString).join(', ')}]`);
  return `read_csv(${parts.join(', ')})`;
}

/** Without a header, columns are named column_1, column_2… (DuckDB's own names start at column0). */
export async function headerlessNames(ctx: RunContext, scan: string, what: string): Promise<string[]> {
  try {
    return await ctx.datasets.pool.use(async (connection) => {
      const prepared = await connection.prepare(`SELECT * FROM ${scan}`);
      const count = prepared.columnCount;
      prepared.destroySync();
      return Array.from({ length: count }, (_, i) => `column_${i + 1}`);
    });
  } catch (err) {
    throw readFailure(err, what, csvExplain(what));
  }
}

/** DuckDB's CSV errors, said plainly: which line breaks the shape, or that no consistent shape exists. */
export const csvExplain =
  (what: string): Explain =>
  (message) => {
    const line = /CSV Error on Line: (\d+)[\s\S]*?Expected Number of Columns: (\d+) Found: (\d+)/.exec(message);
    if (line)
      return `Line ${line[1]} of ${what} has ${line[3]} values where the lines before it have ${line[2]}: check that line (a missing quote or an extra delimiter)`;
    if (message.includes('not possible to automatically detect the CSV parsing dialect'))
      return `${what} is not a well-formed CSV: its lines do not all have the same number of values (check the delimiter, quotes and text encoding)`;
    if (/Invalid unicode|invalid UTF-8|encoding/i.test(message.split('\n')[0]))
      return `${what} is not valid text in the chosen encoding: choose the file's encoding (e.g. Latin-1)`;
    return null;
  };

export const DELIMITER_CANDIDATES = [',', ';', '\t', '|'];

/**
 * "auto": the candidate found most often on the first line. DuckDB's own sniffer falls back to
 * one column when lines disagree, which would hide a ragged file; a chosen delimiter makes DuckDB
 * name the bad line instead. The candidates are ASCII, so counting bytes works in every encoding.
 */
export async function detectDelimiter(filePath: string): Promise<keyof typeof DELIMITERS> {
  const handle = await fs.promises.open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead);
    const newline = head.indexOf(0x0a);
    const firstLine = newline < 0 ? head : head.subarray(0, newline);
    let best: { delimiter: string; count: number } = { delimiter: '', count: 0 };
    for (const delimiter of DELIMITER_CANDIDATES) {
      const code = delimiter.charCodeAt(0);
      const count = firstLine.reduce((n, byte) => (byte === code ? n + 1 : n), 0);
      if (count > best.count) best = { delimiter, count };
    }
    const byChar: Record<string, keyof typeof DELIMITERS> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };
    return best.count ? byChar[best.delimiter] : 'auto';
  } finally {
    await handle.close();
  }
}

export async function csvRead(ctx: RunContext, filePath: string, chosen: CsvOptions, what: string, size: number): Promise<FileRead> {
  // DuckDB cannot infer anything from an empty file; the user sees why, not a sniffer error.
  if (size === 0) throw new StepRunFailed(`${what} is empty`, null);
  const options = chosen.delimiter === 'auto' ? { ...chosen, delimiter: await detectDelimiter(filePath) } : chosen;
  const names = options.hasHeader ? undefined : await headerlessNames(ctx, csvScan(filePath, options), what);
  return { select: `SELECT * FROM ${csvScan(filePath, options, names)}`, explain: csvExplain(what), cleanup: nothingToRemove };
}

export async function readCsv(ctx: RunContext, filePath: string, chosen: CsvOptions, what: string, size: number): Promise<DatasetMetadata> {
  return writeFileRead(ctx, await csvRead(ctx, filePath, chosen, what, size), what);
}

export function csvOptions(params: ParamValues): CsvOptions {
  return {
    delimiter: enumOf(params, 'delimiter', Object.keys(DELIMITERS) as (keyof typeof DELIMITERS)[]),
    hasHeader: params.has_header !== false,
    encoding: enumOf(params, 'encoding', Object.keys(ENCODINGS) as (keyof typeof ENCODINGS)[]),
  };
}

/**
 * The CSV read with what DuckDB's sniffer found pinned (dialect, column names and types, date
 * formats: `sniff_csv`'s own read_csv call, with our options kept), so reading it again — every
 * later step's prepare, and the final query — does not sniff again (≈ 25–100 ms a time for a big
 * file) and cannot come out differently. Kept only when it gives exactly the columns (names and
 * types) the sniffer reports; otherwise the sniffing read stays.
 */
export async function pinnedCsvSelect(ctx: RunContext, select: string, filePath: string): Promise<string> {
  const scan = /^SELECT \* FROM read_csv\((.*)\)$/s.exec(select);
  if (!scan) return select;
  try {
    return await ctx.datasets.pool.use(async (connection) => {
      const sniffed = await connection.runAndReadAll(`SELECT Prompt, CAST(to_json(Columns) AS VARCHAR) FROM sniff_csv(${scan[1]})`);
      const [promptValue, columnsJson] = sniffed.getRows()[0] ?? [];
      const call = /^FROM (read_csv\(.*\));?\s*$/s.exec(String(promptValue ?? '').trim());
      if (!call || !call[1].startsWith(`read_csv(${sqlString(filePath)}`)) return select;
      const pinned = `SELECT * FROM ${call[1]}`;
      // The call must give the columns the sniffer reports (names and types), else the sniffing read stays.
      const expected = (JSON.parse(String(columnsJson ?? '[]')) as { name: string; type: string }[]).map((c) => `${c.name} ${c.type}`).join('\n');
      const prepared = await connection.prepare(pinned);
      try {
        const got = Array.from({ length: prepared.columnCount }, (_, i) => `${prepared.columnName(i)} ${prepared.columnType(i).toString()}`).join('\n');
        return got === expected ? pinned : select;
      } finally {
        prepared.destroySync();
      }
    });
  } catch {
    return select;
  }
}

/** How a deferred import reads its copy of a CSV: sniffed with these options, then pinned (pinnedCsvSelect). */
export function csvCopyRead(ctx: RunContext, options: CsvOptions) {
  return async (path: string, size: number, what: string) => {
    const read = await csvRead(ctx, path, options, what, size);
    return { select: await pinnedCsvSelect(ctx, read.select, path), explain: read.explain };
  };
}
