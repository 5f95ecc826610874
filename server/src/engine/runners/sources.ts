import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
// exceljs is loaded by the step that reads or writes a workbook (it takes ~0.2 s to load, which
// every process start and every test of the engine paid for).
import type * as ExcelJS from 'exceljs';
import { newMarker, type DatasetMetadata, type DatasetRecipe, type RowColumn } from '../datasets';
import { translate } from '../../i18n/messages';
import { OutboundHttpError, type OutboundResponse } from '../outbound-http';
import { sqlString } from '../datasets/sql';
import type { ParamValues } from '../params';
import { ID_COLUMN, resolveParams, sameName, widenTypes } from './columns';
import { paramProblem } from './errors';
import { asStepFailure, StepRunFailed } from './execute';
import type { Column, FolderEntry, RunContext, SourceRunner } from './types';

/**
 * The source steps: each writes `ctx.output` from outside the workflow (a file, a folder, a
 * dataset, a typed-in table). File contents are read by DuckDB (`read_csv`, `read_json`,
 * `read_parquet`) at paths the engine hands over (`ctx.files`), so types are DuckDB's inference;
 * Excel goes through exceljs into JSON Lines first. A preview (`ctx.sampleSize`) reads the first rows.
 */

const limitClause = (ctx: RunContext) => (ctx.sampleSize == null ? '' : ` LIMIT ${Math.max(0, Math.floor(ctx.sampleSize))}`);

function checkAborted(ctx: RunContext) {
  if (ctx.signal.aborted) throw new StepRunFailed('The run was stopped', ctx.signal.reason);
}

/** Turns DuckDB's long error about a file into a reason a person can act on, or null to keep its first line. */
type Explain = (duckdbMessage: string) => string | null;

function readFailure(err: unknown, what: string, explain?: Explain): unknown {
  const failure = asStepFailure(err);
  if (!(failure instanceof StepRunFailed)) return failure;
  const full = String((err as { message?: unknown }).message ?? '');
  return new StepRunFailed(explain?.(full) ?? `Could not read ${what}: ${failure.reason}`, err);
}

/** Writes the step's dataset from one SELECT; DuckDB's errors (a ragged CSV, bad JSON) become StepRunFailed naming `what`. */
async function writeSelect(
  ctx: RunContext,
  what: string,
  select: (inputs: readonly string[]) => string,
  inputs?: DatasetMetadata[],
  explain?: Explain,
): Promise<DatasetMetadata> {
  checkAborted(ctx);
  try {
    return await ctx.datasets.write({
      ownerId: ctx.ownerId,
      name: ctx.output.name,
      datasetId: ctx.output.datasetId,
      stepRunId: ctx.stepRunId,
      inputs,
      source: { sql: (tables) => `${select(tables)}${limitClause(ctx)}` },
    });
  } catch (err) {
    throw readFailure(err, what, explain);
  }
}

function finished(ctx: RunContext, meta: DatasetMetadata, what: string): DatasetMetadata {
  ctx.progress({ done: meta.rowCount, total: meta.rowCount, phase: 'done' });
  ctx.log(
    `Read ${meta.rowCount} record(s) and ${meta.columns.length - 1} column(s) from ${what}${ctx.sampleSize == null ? '' : ` (preview: at most ${ctx.sampleSize})`}`,
  );
  return meta;
}

function idParam(params: ParamValues, name: string, key: string): string {
  const value = params[name];
  if (typeof value !== 'string' || !value.trim()) throw paramProblem([name], key);
  return value;
}

function enumOf<T extends string>(params: ParamValues, name: string, options: readonly T[]): T {
  const value = params[name];
  if (typeof value !== 'string' || !options.includes(value as T)) throw paramProblem([name], 'server.params.enum', { values: options.join(', ') });
  return value as T;
}

const quotedName = (name: string) => `“${name}”`;

// ---------------------------------------------------------------------------------------------
// CSV

const DELIMITERS = { auto: null, comma: ',', semicolon: ';', tab: '\t', pipe: '|' } as const;
/** Our param values → DuckDB's read_csv `encoding` names (DuckDB 1.5 transcodes these itself). */
const ENCODINGS = { 'utf-8': 'utf-8', latin1: 'latin-1', 'utf-16le': 'utf-16' } as const;

interface CsvOptions {
  delimiter: keyof typeof DELIMITERS;
  hasHeader: boolean;
  encoding: keyof typeof ENCODINGS;
}

/**
 * The table expression reading a CSV. Strict: a line with more or fewer fields than the header
 * fails the step naming the line (DuckDB's message) instead of silently shifting values.
 */
function csvScan(filePath: string, options: CsvOptions, names?: string[]): string {
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
async function headerlessNames(ctx: RunContext, scan: string, what: string): Promise<string[]> {
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
const csvExplain =
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

const DELIMITER_CANDIDATES = [',', ';', '\t', '|'];

/**
 * "auto": the candidate found most often on the first line. DuckDB's own sniffer falls back to
 * one column when lines disagree, which would hide a ragged file; a chosen delimiter makes DuckDB
 * name the bad line instead. The candidates are ASCII, so counting bytes works in every encoding.
 */
async function detectDelimiter(filePath: string): Promise<keyof typeof DELIMITERS> {
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

/**
 * How one data file is read: a SELECT over it, how DuckDB's errors about it are said, and what to
 * remove once it has been read (an Excel sheet's JSON Lines). import_csv, import_file and
 * import_folder's `records` all read files through this, so a file reads the same in each.
 */
interface FileRead {
  select: string;
  explain?: Explain;
  cleanup(): Promise<void>;
}

const nothingToRemove = async () => {};

async function csvRead(ctx: RunContext, filePath: string, chosen: CsvOptions, what: string, size: number): Promise<FileRead> {
  // DuckDB cannot infer anything from an empty file; the user sees why, not a sniffer error.
  if (size === 0) throw new StepRunFailed(`${what} is empty`, null);
  const options = chosen.delimiter === 'auto' ? { ...chosen, delimiter: await detectDelimiter(filePath) } : chosen;
  const names = options.hasHeader ? undefined : await headerlessNames(ctx, csvScan(filePath, options), what);
  return { select: `SELECT * FROM ${csvScan(filePath, options, names)}`, explain: csvExplain(what), cleanup: nothingToRemove };
}

/** Writes the step's dataset from one file read, removing what the read left behind. */
async function writeFileRead(ctx: RunContext, read: FileRead, what: string): Promise<DatasetMetadata> {
  try {
    return await writeSelect(ctx, what, () => read.select, undefined, read.explain);
  } finally {
    await read.cleanup();
  }
}

async function readCsv(ctx: RunContext, filePath: string, chosen: CsvOptions, what: string, size: number): Promise<DatasetMetadata> {
  return writeFileRead(ctx, await csvRead(ctx, filePath, chosen, what, size), what);
}

function csvOptions(params: ParamValues): CsvOptions {
  return {
    delimiter: enumOf(params, 'delimiter', Object.keys(DELIMITERS) as (keyof typeof DELIMITERS)[]),
    hasHeader: params.has_header !== false,
    encoding: enumOf(params, 'encoding', Object.keys(ENCODINGS) as (keyof typeof ENCODINGS)[]),
  };
}

export const importCsvRunner: SourceRunner = {
  stepType: 'import_csv',
  kind: 'source',
  outputColumns: () => [],
  async run(ctx, stored) {
    const params = resolveParams('import_csv', stored, ctx.vars);
    const fileId = idParam(params, 'file', 'server.params.file');
    const options = csvOptions(params);
    ctx.progress({ done: 0, phase: 'reading' });
    return ctx.files.withLocalFile(fileId, async (file) => {
      const what = quotedName(file.name);
      return finished(ctx, await readCsv(ctx, file.path, options, what, file.size), what);
    });
  },
  /**
   * Deferred: the dataset keeps its own copy of the file (`datasets/<owner>/<id>.csv`) and its
   * recipe reads that copy with the options chosen now (delimiter, header names), so the records
   * and ids are the same whenever it is materialized. Only the file's head is read here (DuckDB
   * sniffs the types); a line breaking the shape fails the step that first reads the rows.
   */
  async defer(ctx, stored) {
    if (!ctx.files.keep) return null;
    const params = resolveParams('import_csv', stored, ctx.vars);
    const fileId = idParam(params, 'file', 'server.params.file');
    const options = csvOptions(params);
    checkAborted(ctx);
    const storageKey = csvCopyKey(ctx.ownerId, ctx.output.datasetId);
    const file = await ctx.files.keep(fileId, storageKey);
    const what = quotedName(file.name);
    const lease = await ctx.datasets.files.open(storageKey);
    let recipe: DatasetRecipe | null;
    try {
      const read = await csvRead(ctx, lease.path, options, what, file.size);
      const marker = newMarker();
      const select = (await pinnedCsvSelect(ctx, read.select, lease.path)).split(sqlString(lease.path)).join(sqlString(marker));
      const relation = { sql: `(${select}${limitClause(ctx)})`, params: [], leaves: [{ marker, storageKey, datasetId: ctx.output.datasetId }] };
      recipe = await ctx.datasets
        .recipeFor({ datasetId: ctx.output.datasetId, inputs: [relation], select: ([table]) => `SELECT * FROM ${table}` })
        .catch((err: unknown) => {
          throw readFailure(err, what, read.explain);
        });
    } finally {
      lease.release();
    }
    if (!recipe) {
      await ctx.datasets.storage.delete(storageKey);
      return null;
    }
    ctx.progress({ done: 0, total: null, phase: 'deferred' });
    ctx.log(`Read the header of ${what}: ${recipe.columns.length - 1} column(s); its records are read when a later step or a person needs them`);
    return recipe;
  },
};

/**
 * The CSV read with what DuckDB's sniffer found pinned (dialect, column names and types, date
 * formats: `sniff_csv`'s own read_csv call, with our options kept), so reading it again — every
 * later step's prepare, and the final query — does not sniff again (≈ 25–100 ms a time for a big
 * file) and cannot come out differently. Kept only when it gives exactly the columns (names and
 * types) the sniffer reports; otherwise the sniffing read stays.
 */
async function pinnedCsvSelect(ctx: RunContext, select: string, filePath: string): Promise<string> {
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

/** Where a deferred CSV import keeps its copy of the file, beside its (future) snapshot. */
export const csvCopyKey = (ownerId: string, datasetId: string) => `datasets/${ownerId}/${datasetId}.csv`;

// ---------------------------------------------------------------------------------------------
// One file of any data format

export const FILE_FORMATS = ['csv', 'tsv', 'json', 'jsonl', 'xlsx', 'parquet'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];
const BY_EXTENSION: Record<string, FileFormat> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.xlsx': 'xlsx',
  '.parquet': 'parquet',
};

/** The format a file name's ending tells, or null. */
export const formatOf = (fileName: string): FileFormat | null => BY_EXTENSION[path.extname(fileName).toLowerCase()] ?? null;

/** Bigger workbooks are refused: exceljs holds a whole workbook in memory to know its sheets' names. */
export const MAX_XLSX_BYTES = 50 * 1024 * 1024;
/** A header or text cell longer than this is cut: Excel's own cell limit is 32,767 characters. */
const MAX_CELL_CHARS = 32_767;

function cellValue(value: ExcelJS.CellValue): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
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

/** Header cells as unique, non-empty column names (blank → column_N, repeats → name_2). */
function headerNames(cells: (string | number | boolean | null)[]): string[] {
  const seen = new Set<string>();
  return cells.map((cell, i) => {
    const base = cell === null || String(cell).trim() === '' ? `column_${i + 1}` : String(cell).trim().slice(0, 128);
    let name = base;
    for (let n = 2; [...seen].some((s) => sameName(s, name)); n++) name = `${base}_${n}`;
    seen.add(name);
    return name;
  });
}

/** An Excel sheet as JSON Lines in the scratch folder (first row: the header), for DuckDB's type inference. */
async function xlsxToJsonl(
  ctx: RunContext,
  filePath: string,
  size: number,
  sheetName: string,
  what: string,
  limit: number,
): Promise<{ file: string; rows: number; header?: string[] }> {
  if (size > MAX_XLSX_BYTES)
    throw new StepRunFailed(`${what} is larger than ${MAX_XLSX_BYTES / 1024 / 1024} MB, the most an Excel file may be: save it as CSV instead`, null);
  const { Workbook } = await import('exceljs');
  const workbook = new Workbook();
  try {
    await workbook.xlsx.readFile(filePath);
  } catch (err) {
    throw new StepRunFailed(`${what} is not a readable Excel (.xlsx) workbook`, err);
  }
  const sheet = sheetName ? workbook.worksheets.find((s) => s.name === sheetName) : workbook.worksheets[0];
  if (!sheet) {
    const names = workbook.worksheets.map((s) => quotedName(s.name)).join(', ');
    throw new StepRunFailed(sheetName ? `${what} has no sheet ${quotedName(sheetName)}; its sheets are ${names}` : `${what} has no sheets`, null);
  }
  const out = path.join(ctx.files.scratchDir, `sheet-${randomUUID()}.jsonl`);
  const stream = fs.createWriteStream(out);
  let header: string[] | null = null;
  let rows = 0;
  const write = (line: string) =>
    new Promise<void>((resolve, reject) => (stream.write(line) ? resolve() : stream.once('drain', resolve).once('error', reject)));
  try {
    for (let r = 1; r <= sheet.rowCount && rows < limit; r++) {
      const row = sheet.getRow(r);
      const cells: (string | number | boolean | null)[] = [];
      for (let c = 1; c <= Math.max(row.cellCount, header?.length ?? 0); c++) cells.push(cellValue(row.getCell(c).value));
      if (!header) {
        header = headerNames(cells);
        continue;
      }
      if (cells.every((c) => c === null)) continue;
      const record: Record<string, unknown> = {};
      header.forEach((name, i) => (record[name] = cells[i] ?? null));
      await write(`${JSON.stringify(record)}\n`);
      rows++;
      if (rows % 1000 === 0) {
        checkAborted(ctx);
        ctx.progress({ done: rows, total: Math.max(sheet.rowCount - 1, rows), phase: 'reading' });
      }
    }
  } finally {
    await new Promise<void>((resolve) => stream.end(resolve));
  }
  if (!header) throw new StepRunFailed(`${what} is empty: its first row should name the columns`, null);
  return { file: out, rows, ...(rows === 0 ? { header } : {}) };
}

/** Reads at most `limit` records (a preview's sample size, or what is left of it). */
async function fileRead(ctx: RunContext, format: FileFormat, filePath: string, size: number, sheet: string, what: string, limit: number): Promise<FileRead> {
  switch (format) {
    case 'csv':
      return csvRead(ctx, filePath, { delimiter: 'auto', hasHeader: true, encoding: 'utf-8' }, what, size);
    case 'tsv':
      return csvRead(ctx, filePath, { delimiter: 'tab', hasHeader: true, encoding: 'utf-8' }, what, size);
    case 'json':
    case 'jsonl':
      if (size === 0) throw new StepRunFailed(`${what} is empty`, null);
      return {
        select: `SELECT * FROM read_json(${sqlString(filePath)}, format = ${format === 'json' ? "'auto'" : "'newline_delimited'"}, sample_size = 20480)`,
        cleanup: nothingToRemove,
      };
    case 'parquet':
      return { select: `SELECT * FROM read_parquet(${sqlString(filePath)})`, cleanup: nothingToRemove };
    case 'xlsx': {
      const sheetRows = await xlsxToJsonl(ctx, filePath, size, sheet, what, limit);
      const cleanup = () => fs.promises.rm(sheetRows.file, { force: true });
      // No data rows: DuckDB cannot infer from nothing, so the header's columns are text.
      if (sheetRows.header)
        return { select: `SELECT ${sheetRows.header.map((name) => `CAST(NULL AS VARCHAR) AS ${quoteName(name)}`).join(', ')} WHERE false`, cleanup };
      return { select: `SELECT * FROM read_json(${sqlString(sheetRows.file)}, format = 'newline_delimited', sample_size = 20480)`, cleanup };
    }
  }
}

const sampleLimit = (ctx: RunContext) => (ctx.sampleSize == null ? Infinity : Math.max(0, Math.floor(ctx.sampleSize)));

async function readFileAs(ctx: RunContext, format: FileFormat, filePath: string, size: number, sheet: string, what: string): Promise<DatasetMetadata> {
  return writeFileRead(ctx, await fileRead(ctx, format, filePath, size, sheet, what, sampleLimit(ctx)), what);
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

export const importFileRunner: SourceRunner = {
  stepType: 'import_file',
  kind: 'source',
  outputColumns: () => [],
  async run(ctx, stored) {
    const params = resolveParams('import_file', stored, ctx.vars);
    const fileId = idParam(params, 'file', 'server.params.file');
    const chosen = enumOf(params, 'format', ['auto', ...FILE_FORMATS]);
    const sheet = typeof params.sheet === 'string' ? params.sheet.trim() : '';
    ctx.progress({ done: 0, phase: 'reading' });
    return ctx.files.withLocalFile(fileId, async (file) => {
      const what = quotedName(file.name);
      const format = chosen === 'auto' ? formatOf(file.name) : chosen;
      if (!format) throw paramProblem(['format'], 'server.steps.fileFormat', { name: file.name });
      return finished(ctx, await readFileAs(ctx, format, file.path, file.size, sheet, what), what);
    });
  },
};

// ---------------------------------------------------------------------------------------------
// A folder: one record per file

/** The most files one folder step lists; more fail the step rather than making an unbounded dataset. */
export const MAX_FOLDER_FILES = 10_000;
/** The most characters of one file's text kept in `content`. */
export const MAX_CONTENT_CHARS = 1_000_000;
const TEXT_EXTENSIONS = new Set(['.txt', '.csv', '.tsv', '.json', '.jsonl', '.ndjson', '.md', '.markdown', '.xml', '.html', '.htm', '.yaml', '.yml', '.log']);

/** `*` any run of characters, `?` one; everything else literal; case-insensitive, as people name files. */
export function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${body}$`, 'i');
}

const folderColumns = (includeContent: boolean): RowColumn[] => [
  { name: 'file_name', type: 'VARCHAR' },
  { name: 'path', type: 'VARCHAR' },
  { name: 'type', type: 'VARCHAR' },
  { name: 'size', type: 'BIGINT' },
  ...(includeContent ? [{ name: 'content', type: 'VARCHAR' as const }] : []),
];

/** `files`: one record per file (the listing); `records`: the data files' records in one table. */
export const FOLDER_READS = ['files', 'records'] as const;
/** The column `records` adds before the files' own columns: the file's path within the folder. */
export const FILE_NAME_COLUMN = 'file_name';

export const importFolderRunner: SourceRunner = {
  stepType: 'import_folder',
  kind: 'source',
  outputColumns(_inputs, stored) {
    const params = resolveParams('import_folder', stored);
    // The files' own columns are known only once they are read, as with import_file.
    if (enumOf(params, 'read', FOLDER_READS) === 'records') return [];
    return [ID_COLUMN, ...folderColumns(params.include_content === true)];
  },
  async run(ctx, stored) {
    const params = resolveParams('import_folder', stored, ctx.vars);
    const folderId = idParam(params, 'folder', 'server.params.folder');
    const read = enumOf(params, 'read', FOLDER_READS);
    const pattern = typeof params.pattern === 'string' && params.pattern.trim() ? params.pattern.trim() : '*';
    const matches = globToRegExp(pattern);
    const recursive = params.recursive !== false;
    const includeContent = params.include_content === true;
    const entries = (await ctx.files.listFolder(folderId))
      .filter((e) => (recursive || !e.path.includes('/')) && matches.test(e.name))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (entries.length > MAX_FOLDER_FILES)
      throw new StepRunFailed(`The folder has ${entries.length} matching files, more than the ${MAX_FOLDER_FILES} one step reads: narrow the pattern`, null);
    if (read === 'records') return readFolderRecords(ctx, entries, pattern, recursive);
    const chosen = ctx.sampleSize == null ? entries : entries.slice(0, Math.max(0, ctx.sampleSize));
    ctx.log(`Listing ${chosen.length} file(s) matching ${quotedName(pattern)}${recursive ? ' (with subfolders)' : ''}`);
    async function* batches() {
      let batch: Record<string, unknown>[] = [];
      let done = 0;
      for (const entry of chosen) {
        checkAborted(ctx);
        const ext = path.extname(entry.name).toLowerCase();
        const record: Record<string, unknown> = { file_name: entry.name, path: entry.path, type: ext.slice(1), size: entry.size };
        if (includeContent) {
          record.content = TEXT_EXTENSIONS.has(ext)
            ? await ctx.files.withLocalFile(entry.id, async (file) => {
                const handle = await fs.promises.open(file.path, 'r');
                try {
                  // UTF-8 takes at most 4 bytes a character: this many bytes hold the kept characters.
                  const buffer = Buffer.alloc(Math.min(file.size, MAX_CONTENT_CHARS * 4));
                  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
                  return buffer
                    .subarray(0, bytesRead)
                    .toString('utf8')
                    .replace(/^\uFEFF/, '')
                    .slice(0, MAX_CONTENT_CHARS);
                } finally {
                  await handle.close();
                }
              })
            : null;
        }
        batch.push(record);
        done++;
        if (batch.length === 1000) {
          ctx.progress({ done, total: chosen.length, phase: 'reading' });
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
    }
    const meta = await ctx.datasets.write({
      ownerId: ctx.ownerId,
      name: ctx.output.name,
      datasetId: ctx.output.datasetId,
      stepRunId: ctx.stepRunId,
      source: { columns: folderColumns(includeContent), batches: batches() },
    });
    return finished(ctx, meta, 'the folder');
  },
};

/** One data file read into a Parquet file of the scratch folder, with what it holds. */
interface FilePart {
  path: string;
  file: string;
  rows: number;
  columns: Column[];
}

/**
 * Copies a file read into a Parquet file (at most `limit` rows) and answers its row count and
 * columns: the union needs every file's types before it can write one SELECT over them all.
 * Stopping the run interrupts DuckDB.
 */
async function readIntoPart(ctx: RunContext, read: FileRead, target: string, limit: number, what: string): Promise<{ rows: number; columns: Column[] }> {
  checkAborted(ctx);
  try {
    return await ctx.datasets.pool.use(async (connection) => {
      const interrupt = () => connection.interrupt();
      ctx.signal.addEventListener('abort', interrupt, { once: true });
      try {
        const limited = Number.isFinite(limit) ? `SELECT * FROM (${read.select}) LIMIT ${limit}` : read.select;
        await connection.run(`COPY (${limited}) TO ${sqlString(target)} (FORMAT parquet)`);
        const count = await connection.runAndReadAll(`SELECT num_rows FROM parquet_file_metadata(${sqlString(target)})`);
        const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(target)})`);
        const columns = described.getRowObjects().map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
        return { rows: Number(count.getRows()[0]?.[0] ?? 0), columns };
      } finally {
        ctx.signal.removeEventListener('abort', interrupt);
      }
    });
  } catch (err) {
    checkAborted(ctx);
    throw readFailure(err, what, read.explain);
  }
}

/** Types the union casts to are widenTypes' choice or a file's own, kept only if plainly spelt (as union does). */
const PLAIN_TYPE = /^[A-Z][A-Z ]*(\(\d+,\s*\d+\))?$/;
const castTo = (expr: string, type: string) => (PLAIN_TYPE.test(type) ? `CAST(${expr} AS ${type})` : expr);

/**
 * `read: records`: every data file (by its name's ending, as import_file's "auto") read as
 * import_file reads it (Excel: the first sheet), then stacked in path order into one table, as
 * union stacks by name: columns line up case-insensitively (first spelling and position win), a
 * column a file lacks is NULL there, types widen (widenTypes). `file_name`, the file's path within
 * the folder, comes first. Files of other kinds and files without records are skipped and counted
 * in the log; a file that cannot be read fails the step naming it. A preview's sample size bounds
 * the records of all files together: reading stops once it is reached.
 */
async function readFolderRecords(ctx: RunContext, entries: FolderEntry[], pattern: string, recursive: boolean): Promise<DatasetMetadata> {
  const limit = sampleLimit(ctx);
  const parts: FilePart[] = [];
  // Every Parquet file made here, read or not: removed whatever happens.
  const scratchFiles: string[] = [];
  let rows = 0;
  let otherKinds = 0;
  let empty = 0;
  ctx.log(`Reading the records of the data files among ${entries.length} file(s) matching ${quotedName(pattern)}${recursive ? ' (with subfolders)' : ''}`);
  try {
    for (const [index, entry] of entries.entries()) {
      if (rows >= limit) break;
      checkAborted(ctx);
      ctx.progress({ done: index, total: entries.length, phase: 'reading files' });
      const format = formatOf(entry.name);
      if (!format) {
        otherKinds++;
        continue;
      }
      // An empty file has no records: skipped, where import_file would say it is empty.
      if (entry.size === 0) {
        empty++;
        continue;
      }
      const what = quotedName(entry.path);
      const target = path.join(ctx.files.scratchDir, `folder-part-${randomUUID()}.parquet`);
      scratchFiles.push(target);
      const part = await ctx.files.withLocalFile(entry.id, async (file) => {
        const read = await fileRead(ctx, format, file.path, file.size, '', what, limit - rows);
        try {
          return await readIntoPart(ctx, read, target, limit - rows, what);
        } finally {
          await read.cleanup();
        }
      });
      if (part.rows === 0) {
        empty++;
        continue;
      }
      const clash = part.columns.find((c) => sameName(c.name, FILE_NAME_COLUMN));
      if (clash)
        throw new StepRunFailed(
          `${what} has its own column ${quotedName(clash.name)}, the name this step gives the column of file names: rename that column in the file`,
          null,
        );
      parts.push({ path: entry.path, file: target, rows: part.rows, columns: part.columns });
      rows += part.rows;
    }
    if (otherKinds) ctx.log(`Skipped ${otherKinds} file(s) that are not CSV, TSV, JSON, JSONL, XLSX or Parquet`);
    if (empty) ctx.log(`Skipped ${empty} file(s) without records`);
    // For each output column, which column of each file feeds it (null: none, NULL there).
    const out: { column: Column; from: (Column | null)[] }[] = [];
    for (const [i, part] of parts.entries()) {
      for (const c of part.columns) {
        let slot = out.find((o) => sameName(o.column.name, c.name));
        if (!slot) out.push((slot = { column: { name: c.name, type: c.type }, from: parts.map(() => null) }));
        else slot.column = { name: slot.column.name, type: widenTypes(slot.column.type, c.type) };
        slot.from[i] = c;
      }
    }
    const [which, position] = [quoteName('__stepwise_file'), quoteName('__stepwise_pos')];
    const selects = parts.map((part, i) => {
      const list = out.map(({ column, from }) => {
        const source = from[i];
        if (!source) return `${castTo('NULL', column.type)} AS ${quoteName(column.name)}`;
        return `${source.type === column.type ? quoteName(source.name) : castTo(quoteName(source.name), column.type)} AS ${quoteName(column.name)}`;
      });
      return `SELECT ${[`${sqlString(part.path)} AS ${quoteName(FILE_NAME_COLUMN)}`, ...list, `${i} AS ${which}`, `row_number() OVER () AS ${position}`].join(', ')} FROM read_parquet(${sqlString(part.file)})`;
    });
    const what = `${parts.length} file(s) of the folder`;
    // No records anywhere: an empty table that still has the file name column.
    const select = selects.length
      ? `SELECT * EXCLUDE (${which}, ${position}) FROM (${selects.join(' UNION ALL ')}) ORDER BY ${which}, ${position}`
      : `SELECT CAST(NULL AS VARCHAR) AS ${quoteName(FILE_NAME_COLUMN)} WHERE false`;
    return finished(ctx, await writeSelect(ctx, what, () => select), what);
  } finally {
    await Promise.all(scratchFiles.map((file) => fs.promises.rm(file, { force: true })));
  }
}

// ---------------------------------------------------------------------------------------------
// An existing dataset

export const importDatasetRunner: SourceRunner = {
  stepType: 'import_dataset',
  kind: 'source',
  outputColumns: () => [],
  async run(ctx, stored) {
    const params = resolveParams('import_dataset', stored, ctx.vars);
    const datasetId = idParam(params, 'dataset', 'server.params.dataset');
    const input = await ctx.dataset(datasetId);
    ctx.progress({ done: 0, total: input.rowCount, phase: 'reading' });
    // SELECT * keeps `_id`: the records keep their identity from the dataset they come from.
    const meta = await writeSelect(ctx, `dataset ${quotedName(input.name)}`, ([table]) => `SELECT * FROM ${table}`, [input]);
    return finished(ctx, meta, `dataset ${quotedName(input.name)}`);
  },
};

// ---------------------------------------------------------------------------------------------
// A typed-in table

export const TABLE_LIMITS = { rows: 1000, columns: 100, cellChars: 10_000 } as const;
const TABLE_TYPES = { text: 'VARCHAR', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN', date: 'DATE' } as const;
type TableType = keyof typeof TABLE_TYPES;

interface TableColumn {
  name: string;
  type: TableType;
}

function tableColumns(params: ParamValues): TableColumn[] {
  const list = params.columns;
  if (!Array.isArray(list) || list.length === 0) throw paramProblem(['columns'], 'server.steps.tableColumns');
  if (list.length > TABLE_LIMITS.columns)
    throw paramProblem(['columns'], 'server.steps.tableTooBig', { rows: TABLE_LIMITS.rows, columns: TABLE_LIMITS.columns });
  const columns: TableColumn[] = [];
  list.forEach((item: unknown, i) => {
    const { name, type } = (item && typeof item === 'object' && !Array.isArray(item) ? item : {}) as Record<string, unknown>;
    if (typeof name !== 'string' || !name.trim() || name.length > 128 || name.includes('\0'))
      throw paramProblem(['columns', i, 'name'], 'server.steps.columnName');
    if (sameName(name, ID_COLUMN.name)) throw paramProblem(['columns', i, 'name'], 'server.steps.recordIdColumn');
    if (columns.some((c) => sameName(c.name, name))) throw paramProblem(['columns', i, 'name'], 'server.steps.duplicateOutput', { column: name });
    if (typeof type !== 'string' || !(type in TABLE_TYPES))
      throw paramProblem(['columns', i, 'type'], 'server.params.enum', { values: Object.keys(TABLE_TYPES).join(', ') });
    columns.push({ name, type: type as TableType });
  });
  return columns;
}

const dateText = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A typed-in cell as its column's value; text a person typed counts ("12", "true"); empty is null. */
function tableCell(value: unknown, column: TableColumn, loc: (string | number)[], row: number): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.length > TABLE_LIMITS.cellChars)
    throw paramProblem(loc, 'server.steps.tableCellTooLong', { row, column: column.name, limit: TABLE_LIMITS.cellChars });
  if (typeof value === 'string' && value.trim() === '' && column.type !== 'text') return null;
  const wrong = () =>
    paramProblem(loc, 'server.steps.tableCell', {
      row,
      column: column.name,
      value: String(typeof value === 'object' ? JSON.stringify(value) : value).slice(0, 50),
      type: column.type,
    });
  const text = typeof value === 'string' ? value.trim() : null;
  switch (column.type) {
    case 'text':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw wrong();
    case 'integer': {
      const n = typeof value === 'number' ? value : text !== null && /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(n)) throw wrong();
      return n;
    }
    case 'number': {
      const n = typeof value === 'number' ? value : text !== null && text !== '' ? Number(text) : NaN;
      if (!Number.isFinite(n)) throw wrong();
      return n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (text !== null && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
      throw wrong();
    case 'date': {
      const m = text === null ? null : dateText.exec(text);
      if (!m || new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).toISOString().slice(0, 10) !== text) throw wrong();
      return text;
    }
  }
}

function tableRows(params: ParamValues, columns: TableColumn[]): Record<string, unknown>[] {
  const list = params.rows;
  if (!Array.isArray(list)) throw paramProblem(['rows'], 'server.steps.tableRows');
  if (list.length > TABLE_LIMITS.rows) throw paramProblem(['rows'], 'server.steps.tableTooBig', { rows: TABLE_LIMITS.rows, columns: TABLE_LIMITS.columns });
  return list.map((row: unknown, i) => {
    const record: Record<string, unknown> = {};
    if (Array.isArray(row)) {
      if (row.length > columns.length)
        throw paramProblem(['rows', i], 'server.steps.tableRowWidth', { row: i + 1, count: row.length, expected: columns.length });
      columns.forEach((c, j) => (record[c.name] = tableCell(row[j], c, ['rows', i, j], i + 1)));
    } else if (row && typeof row === 'object') {
      for (const key of Object.keys(row)) {
        if (!columns.some((c) => c.name === key))
          throw paramProblem(['rows', i, key], 'server.steps.tableUnknownColumn', { row: i + 1, column: key.slice(0, 128) });
      }
      columns.forEach((c) => (record[c.name] = tableCell((row as Record<string, unknown>)[c.name], c, ['rows', i, c.name], i + 1)));
    } else {
      throw paramProblem(['rows', i], 'server.steps.tableRows');
    }
    return record;
  });
}

const tableRowColumns = (columns: TableColumn[]): RowColumn[] => columns.map((c) => ({ name: c.name, type: TABLE_TYPES[c.type] }));

export const tableInputRunner: SourceRunner = {
  stepType: 'table_input',
  kind: 'source',
  outputColumns(_inputs, stored) {
    const params = resolveParams('table_input', stored);
    const columns = tableColumns(params);
    tableRows(params, columns);
    return [ID_COLUMN, ...tableRowColumns(columns)];
  },
  async run(ctx, stored) {
    const params = resolveParams('table_input', stored, ctx.vars);
    const columns = tableColumns(params);
    const rows = tableRows(params, columns);
    const kept = ctx.sampleSize == null ? rows : rows.slice(0, Math.max(0, ctx.sampleSize));
    checkAborted(ctx);
    const meta = await ctx.datasets.write({
      ownerId: ctx.ownerId,
      name: ctx.output.name,
      datasetId: ctx.output.datasetId,
      stepRunId: ctx.stepRunId,
      source: { columns: tableRowColumns(columns), batches: [kept] },
    });
    return finished(ctx, meta, 'the typed-in table');
  },
};

// ---------------------------------------------------------------------------------------------
// A JSON API, page by page

export const HTTP_SOURCE_LIMITS = { maxPages: 1000, maxRecords: 1_000_000, maxHeaders: 50 } as const;
const PAGINATIONS = ['none', 'page', 'cursor', 'next_link'] as const;

/** `{{var.NAME}}` in a URL or header: the variable's value (URL-encoded in URLs); anything else refused at the param. */
function renderTemplate(text: string, vars: RunContext['vars'], loc: (string | number)[], encode: boolean): string {
  return text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (whole, inside: string) => {
    const m = /^var\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(inside);
    if (!m || !Object.prototype.hasOwnProperty.call(vars, m[1])) throw paramProblem(loc, 'server.steps.unresolvedReference', { reference: whole });
    const value = vars[m[1]];
    const textValue = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    return encode ? encodeURIComponent(textValue) : textValue;
  });
}

/** `data.items` → body.data.items; '' → the body; a missing step → undefined. */
function atPath(body: unknown, dotted: string): unknown {
  let value = body;
  for (const key of dotted.split('.').filter(Boolean)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = Array.isArray(value) ? value[Number(key)] : (value as Record<string, unknown>)[key];
  }
  return value;
}

function textParam(params: ParamValues, name: string, max: number): string {
  const value = params[name] ?? '';
  if (typeof value !== 'string' || value.length > max) throw paramProblem([name], 'server.params.maxLength', { limit: max });
  return value.trim();
}

/** The Link header's rel="next" address, if any. */
function nextFromLinkHeader(header: string | undefined): string | null {
  for (const part of (header ?? '').split(',')) {
    const m = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (m && /rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(m[2])) return m[1];
  }
  return null;
}

const withoutQuery = (url: string) => url.replace(/[?#].*$/, '');

interface HttpPlan {
  url: string;
  headers: Record<string, string>;
  recordsPath: string;
  pagination: (typeof PAGINATIONS)[number];
  pageParam: string;
  nextPath: string;
  maxPages: number;
}

function httpPlan(params: ParamValues, vars: RunContext['vars']): HttpPlan {
  const url = textParam(params, 'url', 2000);
  if (!url) throw paramProblem(['url'], 'server.params.required');
  const headerValues = params.headers ?? {};
  if (!headerValues || typeof headerValues !== 'object' || Array.isArray(headerValues) || Object.keys(headerValues).length > HTTP_SOURCE_LIMITS.maxHeaders)
    throw paramProblem(['headers'], 'server.steps.httpHeaders', { limit: HTTP_SOURCE_LIMITS.maxHeaders });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(headerValues)) {
    if (typeof value !== 'string') throw paramProblem(['headers', name], 'server.steps.httpHeaders', { limit: HTTP_SOURCE_LIMITS.maxHeaders });
    headers[name] = renderTemplate(value, vars, ['headers', name], false);
  }
  const maxPages = params.max_pages;
  if (typeof maxPages !== 'number' || !Number.isSafeInteger(maxPages)) throw paramProblem(['max_pages'], 'server.params.integer');
  if (maxPages < 1) throw paramProblem(['max_pages'], 'server.params.minimum', { limit: 1 });
  if (maxPages > HTTP_SOURCE_LIMITS.maxPages) throw paramProblem(['max_pages'], 'server.params.maximum', { limit: HTTP_SOURCE_LIMITS.maxPages });
  const pagination = enumOf(params, 'pagination', PAGINATIONS);
  const pageParam = textParam(params, 'page_param', 100);
  if ((pagination === 'page' || pagination === 'cursor') && !pageParam) throw paramProblem(['page_param'], 'server.params.required');
  const nextPath = textParam(params, 'next_path', 200);
  if (pagination === 'cursor' && !nextPath) throw paramProblem(['next_path'], 'server.params.required');
  return {
    url: renderTemplate(url, vars, ['url'], true),
    headers,
    recordsPath: textParam(params, 'records_path', 200),
    pagination,
    pageParam,
    nextPath,
    maxPages,
  };
}

async function fetchJson(ctx: RunContext, url: string, headers: Record<string, string>): Promise<OutboundResponse> {
  let response: OutboundResponse;
  try {
    response = await ctx.http.request({ method: 'GET', url, headers: { accept: 'application/json', ...headers }, signal: ctx.signal });
  } catch (err) {
    if (err instanceof OutboundHttpError) throw new StepRunFailed(`GET ${withoutQuery(url)}: ${translate('en', err.key, err.values)}`, err);
    throw err;
  }
  if (response.status >= 400) throw new StepRunFailed(`GET ${withoutQuery(url)} answered HTTP ${response.status}`, null);
  if (!response.json)
    throw new StepRunFailed(`GET ${withoutQuery(url)} did not answer JSON (Content-Type: ${response.headers['content-type'] ?? 'none'})`, null);
  return response;
}

export const importHttpJsonRunner: SourceRunner = {
  stepType: 'import_http_json',
  kind: 'source',
  outputColumns: () => [],
  async run(ctx, stored) {
    const params = resolveParams('import_http_json', stored, ctx.vars);
    const plan = httpPlan(params, ctx.vars);
    const limit = Math.min(ctx.sampleSize ?? Infinity, HTTP_SOURCE_LIMITS.maxRecords);
    // Records go to JSON Lines in the scratch folder as they arrive: DuckDB then infers the types.
    const out = path.join(ctx.files.scratchDir, `api-${randomUUID()}.jsonl`);
    const stream = fs.createWriteStream(out);
    const write = (line: string) =>
      new Promise<void>((resolve, reject) => (stream.write(line) ? resolve() : stream.once('drain', resolve).once('error', reject)));
    let records = 0;
    let pages = 0;
    try {
      let url: string | null = plan.url;
      let page = 1;
      const addQuery = (base: string, value: string) => {
        const next = new URL(base);
        next.searchParams.set(plan.pageParam, value);
        return next.toString();
      };
      if (plan.pagination === 'page') url = addQuery(plan.url, String(page));
      while (url && pages < plan.maxPages && records < limit) {
        checkAborted(ctx);
        const response = await fetchJson(ctx, url, plan.headers);
        pages++;
        const found = atPath(response.body, plan.recordsPath);
        if (found === undefined) throw new StepRunFailed(`The answer of GET ${withoutQuery(url)} has nothing at ${quotedName(plan.recordsPath)}`, null);
        const list = Array.isArray(found) ? found : [found];
        for (const item of list) {
          if (records >= limit) break;
          // A record that is not an object (a list of names) becomes {"value": …}.
          await write(`${JSON.stringify(item !== null && typeof item === 'object' && !Array.isArray(item) ? item : { value: item })}\n`);
          records++;
        }
        ctx.progress({ done: records, phase: `page ${pages}` });
        if (plan.pagination === 'none') url = null;
        else if (plan.pagination === 'page') url = list.length ? addQuery(plan.url, String(++page)) : null;
        else if (plan.pagination === 'cursor') {
          const cursor = atPath(response.body, plan.nextPath);
          url = cursor === null || cursor === undefined || cursor === '' ? null : addQuery(plan.url, String(cursor));
        } else {
          const next = plan.nextPath ? atPath(response.body, plan.nextPath) : nextFromLinkHeader(response.headers.link);
          url = typeof next === 'string' && next ? new URL(next, response.url).toString() : null;
        }
      }
      if (url && pages >= plan.maxPages) ctx.log(`Stopped after ${pages} page(s), the most this step may call (max_pages)`);
    } finally {
      await new Promise<void>((resolve) => stream.end(resolve));
    }
    try {
      const what = `the answers of ${withoutQuery(plan.url)}`;
      // No records: DuckDB infers nothing from an empty file, so the table is one empty text column.
      const meta = records
        ? await writeSelect(ctx, what, () => `SELECT * FROM read_json(${sqlString(out)}, format = 'newline_delimited', sample_size = 20480)`)
        : await writeSelect(ctx, what, () => 'SELECT CAST(NULL AS VARCHAR) AS value WHERE false');
      ctx.log(`Called ${pages} page(s)`);
      return finished(ctx, meta, what);
    } finally {
      await fs.promises.rm(out, { force: true });
    }
  },
};

export const sourceRunners: SourceRunner[] = [
  importCsvRunner,
  importFileRunner,
  importFolderRunner,
  importDatasetRunner,
  tableInputRunner,
  importHttpJsonRunner,
];
