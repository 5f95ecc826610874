import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { translate } from '../../i18n/messages';
import { StepRunFailed } from '../runners/execute';
import type { RunContext } from '../runners/types';
import { bed, useSourceTestbed, workbook } from '../../test/engine/source-testbed';
import { tinyCellsWorkbook, withDeclaredSize } from '../../test/engine/xlsx-bomb';
import { xlsxToJsonl, xlsxWorkersRunning, type XlsxReadOptions } from './xlsx';
import { MAX_XLSX_BYTES, MAX_XLSX_READS_AT_ONCE, type XlsxLimits } from './xlsx-limits';

// Excel reads in a worker thread, streaming, within bounds (decision 0063), on the runner testbed.

useSourceTestbed();

/** Reads the first sheet of `bytes`, added to the user's files as `name`, as import_file hands it over. */
async function read(name: string, bytes: Buffer, options: XlsxReadOptions & { ctx?: RunContext; limit?: number } = {}) {
  const ctx = options.ctx ?? bed.context();
  return ctx.files.withLocalFile(bed.addFile(name, bytes), (file) =>
    xlsxToJsonl(ctx, file.path, file.size, '', `“${name}”`, options.limit ?? Infinity, options),
  );
}

/** The failure a read ends with, in English and in Chinese, with its key. */
async function failureOf(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StepRunFailed);
  const e = err as StepRunFailed;
  return { key: e.messageKey, en: translate('en', e.messageKey, e.values), zh: translate('zh-CN', e.messageKey, e.values) };
}

const linesOf = (file: string) => fs.readFileSync(file, 'utf8').trim().split('\n');
const scratchFiles = (ctx: RunContext) => fs.readdirSync(ctx.files.scratchDir);

describe('xlsxToJsonl: an Excel sheet read in a worker thread', () => {
  it('streams the rows to JSON Lines off the event loop: a ticker keeps ticking while a big sheet is read', async () => {
    const book = await tinyCellsWorkbook(30_000, 10);
    const updates: number[] = [];
    const ctx = { ...bed.context(), progress: (u: { done: number }) => updates.push(u.done) };
    let ticks = 0;
    let workerSeen = false;
    let ticking = true;
    const tick = () => {
      ticks++;
      if (xlsxWorkersRunning() > 0) workerSeen = true;
      if (ticking) setTimeout(tick, 1);
    };
    setTimeout(tick, 1);
    try {
      const result = await read('big.xlsx', book, { ctx });
      expect(result.rows).toBe(30_000);
      const lines = linesOf(result.file);
      expect(lines).toHaveLength(30_000);
      expect(JSON.parse(lines[0])).toEqual({ c1: 1, c2: 1, c3: 1, c4: 1, c5: 1, c6: 1, c7: 1, c8: 1, c9: 1, c10: 1 });
    } finally {
      ticking = false;
    }
    // The API's thread turned its event loop over and over while the sheet was read elsewhere, and
    // rows were reported as they came, not once at the end.
    expect(ticks).toBeGreaterThan(50);
    expect(workerSeen).toBe(true);
    expect(updates).toHaveLength(30);
    expect(updates.slice(0, 3)).toEqual([1000, 2000, 3000]);
    expect(xlsxWorkersRunning()).toBe(0);
  }, 30_000);

  it('stops at a preview’s last record and ends its worker', async () => {
    const result = await read('preview.xlsx', await tinyCellsWorkbook(5000, 3), { limit: 5 });
    expect(result.rows).toBe(5);
    expect(linesOf(result.file)).toHaveLength(5);
    expect(xlsxWorkersRunning()).toBe(0);
  });

  it('keeps a character that two chunks of the unpacked XML share (shared strings and the sheet alike)', async () => {
    const fill = (sheet: ExcelJS.Worksheet) => {
      sheet.addRow(['名字', 'note']).commit();
      for (let i = 0; i < 8000; i++) sheet.addRow([`李雷${i}`, '韩梅梅和李雷']).commit();
    };
    // exceljs's own writer keeps texts in the shared strings; its streaming writer, in the sheet.
    const shared = await workbook((wb) => fill(wb.addWorksheet('Names')));
    const inlineFile = path.join(bed.dir, 'inline.xlsx');
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: inlineFile, useSharedStrings: false });
    fill(writer.addWorksheet('Names'));
    await writer.commit();
    for (const book of [shared, fs.readFileSync(inlineFile)]) {
      const lines = linesOf((await read('names.xlsx', book)).file);
      expect(lines).toHaveLength(8000);
      expect(lines.filter((l) => l.includes('\uFFFD'))).toEqual([]);
      expect(JSON.parse(lines[7999])).toEqual({ 名字: '李雷7999', note: '韩梅梅和李雷' });
    }
  }, 30_000);

  it('ends on abort (pause, cancel): the worker is terminated and its file removed', async () => {
    const controller = new AbortController();
    const ctx = {
      ...bed.context({ signal: controller.signal }),
      progress: () => controller.abort(new Error('paused')),
    };
    const failure = await failureOf(read('stopped.xlsx', await tinyCellsWorkbook(30_000, 10), { ctx }));
    expect(failure.en).toBe('The step failed while running: The run was stopped');
    expect(xlsxWorkersRunning()).toBe(0);
    expect(scratchFiles(ctx)).toEqual([]);
  });

  it(`reads at most ${MAX_XLSX_READS_AT_ONCE} sheets at once; a step stopped while waiting leaves the queue`, async () => {
    const book = await tinyCellsWorkbook(5000, 5);
    const controller = new AbortController();
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, xlsxWorkersRunning())), 1);
    try {
      const stoppable = bed.context({ signal: controller.signal });
      const reads = [read('a.xlsx', book), read('b.xlsx', book), read('c.xlsx', book, { ctx: stoppable }), read('d.xlsx', book)];
      while (xlsxWorkersRunning() < MAX_XLSX_READS_AT_ONCE) await new Promise((resolve) => setTimeout(resolve, 1));
      controller.abort();
      const results = await Promise.allSettled(reads);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    } finally {
      clearInterval(watch);
    }
    expect(most).toBe(MAX_XLSX_READS_AT_ONCE);
    expect(xlsxWorkersRunning()).toBe(0);
  }, 30_000);

  it('does not start a worker for a step already stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    const ctx = bed.context({ signal: controller.signal });
    expect((await failureOf(read('late.xlsx', await tinyCellsWorkbook(10, 2), { ctx }))).en).toBe('The step failed while running: The run was stopped');
  });
});

describe('xlsxToJsonl: the bounds end a workbook bomb with its own message', () => {
  // A bomb in miniature: the same tiny cells, with the bounds lowered for the test.
  const bomb = (rows = 2000, columns = 10) => tinyCellsWorkbook(rows, columns);
  const limited = async (limits: Partial<XlsxLimits>, bytes?: Buffer) => {
    const ctx = bed.context();
    const failure = await failureOf(read('bomb.xlsx', bytes ?? (await bomb()), { ctx, limits }));
    expect(xlsxWorkersRunning()).toBe(0);
    expect(scratchFiles(ctx)).toEqual([]);
    return failure;
  };

  it('cells', async () => {
    const failure = await limited({ cells: 5000 });
    expect(failure.key).toBe('server.steps.xlsxReadTooManyCells');
    expect(failure.en).toBe(
      'The sheet read from “bomb.xlsx” has more than 5,000 cells, the most read from an Excel file: save it as CSV and import that instead (CSV has no such limit).',
    );
    expect(failure.zh).toContain('5,000 个单元格');
  });

  it('rows and columns', async () => {
    expect((await limited({ rows: 100 })).en).toBe(
      'The sheet read from “bomb.xlsx” has more than 100 rows, the most an Excel sheet has: save it as CSV and import that instead.',
    );
    const columns = await limited({ columns: 5 });
    expect(columns.key).toBe('server.steps.xlsxReadTooManyColumns');
    expect(columns.zh).toContain('超过 5 列');
  });

  it('the XML unpacked, by the sizes the zip declares, before the sheet is parsed', async () => {
    const failure = await limited({ unpackedBytes: 100 * 1024 });
    expect(failure.key).toBe('server.steps.xlsxReadUnpackedTooLarge');
    expect(failure.en).toBe(
      '“bomb.xlsx” unpacks to more than 0.1 MB of sheet data, the most an Excel file may hold here: save the sheet as CSV and import that instead.',
    );
  });

  it('a sheet that declares a huge size is refused with the default bounds, unparsed', async () => {
    const declared = withDeclaredSize(await bomb(10, 2), undefined, 0xf000_0000);
    const failure = await failureOf(read('declared.xlsx', declared));
    expect(failure.en).toBe(
      '“declared.xlsx” unpacks to more than 200 MB of sheet data, the most an Excel file may hold here: save the sheet as CSV and import that instead.',
    );
    expect(failure.zh).toContain('超过 200 MB');
  });

  it('a sheet that unpacks to more than it declares is stopped by the zip reader', async () => {
    const forged = withDeclaredSize(await bomb(), undefined, 100);
    const ctx = bed.context();
    expect((await failureOf(read('forged.xlsx', forged, { ctx }))).en).toBe(
      'The step failed while running: “forged.xlsx” is not a readable Excel (.xlsx) workbook',
    );
    // yauzl stops the part at its first unpacked chunk past the size declared.
    expect(ctx.lines).toEqual([
      expect.stringMatching(/^Could not read “forged.xlsx” as a workbook: too many bytes in the stream. expected 100. got at least \d+$/),
    ]);
  });

  it('the records written, which shared strings can make far larger than the XML', async () => {
    const failure = await limited({ recordBytes: 100 * 1024 });
    expect(failure.key).toBe('server.steps.xlsxReadRecordsTooLarge');
    expect(failure.en).toContain('makes more than 0.1 MB of records');
  });

  it('the file itself, before any worker starts', async () => {
    const ctx = bed.context();
    const failure = await failureOf(xlsxToJsonl(ctx, '/nowhere.xlsx', MAX_XLSX_BYTES + 1, '', '“huge.xlsx”', Infinity));
    expect(failure.en).toBe('“huge.xlsx” is larger than 50 MB, the most an Excel file may be: save the sheet as CSV and import that instead.');
    expect(failure.zh).toContain('大于 50 MB');
  });
});
