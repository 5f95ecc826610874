/**
 * What one Excel read may take, and what the thread reading it (xlsx-worker.ts) and the step
 * (xlsx.ts) say to each other. An .xlsx is a zip of XML: 1.3 MB of it unpacked to 311 MB of XML
 * holding 20 million tiny cells (issue "XLSX bomb"), so the compressed size alone bounds nothing.
 * Every bound below ends the read with its own message (server.steps.xlsxReadTooManyCells and its
 * kind) suggesting CSV, which DuckDB reads off the JavaScript thread with no such cost.
 */

/** The file itself: the zip is opened by its central directory, which sits at its end. */
export const MAX_XLSX_BYTES = 50 * 1024 * 1024;

/**
 * The XML the read unpacks (the workbook, its relationships, shared strings, styles and the one
 * sheet read; other sheets, images and the rest are never unpacked). Each part's declared size is
 * checked before it is parsed, and the zip reader stops a part that unpacks to more than it
 * declared. 200 MB is about 10 million small cells, five times what MAX_XLSX_CELLS lets through, so
 * a real sheet within the cell bound is not refused for its markup.
 */
export const MAX_XLSX_UNPACKED_BYTES = 200 * 1024 * 1024;

/** Excel's own sheet holds 1,048,576 rows; a sheet with more was not made by a spreadsheet. */
export const MAX_XLSX_ROWS = 1_048_576;

/**
 * Columns of any row. Excel allows 16,384, but a table that wide is not one people read, and each
 * record is written as one JSON object of that many keys; 1,000 is far past real sheets.
 */
export const MAX_XLSX_COLUMNS = 1_000;

/**
 * Cells, counted to each row's last cell. Streaming, a cell costs about 2 µs of the worker's time
 * (measured: 1 million tiny cells in 1.8 s), so 2 million cells (100,000 rows of 20 columns) read in
 * about 4 s; the 4 million took 24 s read whole in the API's own thread.
 */
export const MAX_XLSX_CELLS = 2_000_000;

/**
 * Bytes of the records written (JSON Lines, for DuckDB to type): a shared string is stored once but
 * may fill every cell, so the output can be far larger than the XML. 1 GiB is five times the XML
 * bound.
 */
export const MAX_XLSX_RECORD_BYTES = 1024 * 1024 * 1024;

/** Parts in the zip: a workbook has tens; the directory is read into memory before anything else. */
export const MAX_XLSX_PARTS = 10_000;

/**
 * The worker's JavaScript heap. Rows stream through; what stays is the shared strings table (at
 * most MAX_XLSX_UNPACKED_BYTES of XML) and the styles. A workbook needing more ends the worker
 * alone (ERR_WORKER_OUT_OF_MEMORY), never the API process.
 */
export const XLSX_WORKER_HEAP_MB = 512;

/**
 * Excel reads at once in this process; more wait their turn (a stopped step leaves the queue). Each
 * keeps a core busy and may hold up to XLSX_WORKER_HEAP_MB, so with the queue's default of 4 step
 * runs at once, four bombs would otherwise take every core of a small server and 2 GB.
 */
export const MAX_XLSX_READS_AT_ONCE = 2;

export interface XlsxLimits {
  unpackedBytes: number;
  rows: number;
  columns: number;
  cells: number;
  recordBytes: number;
}

export const XLSX_LIMITS: XlsxLimits = {
  unpackedBytes: MAX_XLSX_UNPACKED_BYTES,
  rows: MAX_XLSX_ROWS,
  columns: MAX_XLSX_COLUMNS,
  cells: MAX_XLSX_CELLS,
  recordBytes: MAX_XLSX_RECORD_BYTES,
};

/** One sheet to read into `out` (JSON Lines, first the header's names as keys), at most `limit` records. */
export interface XlsxJob {
  file: string;
  out: string;
  /** Empty: the workbook's first sheet. */
  sheet: string;
  limit: number;
  limits: XlsxLimits;
}

export type XlsxFailure =
  | { code: 'unreadable'; detail: string }
  | { code: 'tooManyParts'; parts: number }
  | { code: 'noSheets' }
  | { code: 'noSheet'; sheet: string; names: string[] }
  | { code: 'empty' }
  | { code: 'unpackedTooLarge' }
  | { code: 'tooManyRows' }
  | { code: 'tooManyColumns' }
  | { code: 'tooManyCells' }
  | { code: 'recordsTooLarge' };

/** A read that ends for a reason the step names (thrown in the worker, posted to the step). */
export class XlsxReadError extends Error {
  constructor(readonly failure: XlsxFailure) {
    super(failure.code);
    this.name = 'XlsxReadError';
  }
}

export type XlsxWorkerMessage =
  { type: 'progress'; rows: number; total: number | null } | { type: 'done'; rows: number; header: string[] } | { type: 'failed'; failure: XlsxFailure };
