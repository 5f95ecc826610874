import fs from 'node:fs';

import ExcelJS from 'exceljs';
import { DomainError } from '../../lib/errors';
import { StepRunFailed } from '../runners';
import { datasets, empty, failure, formulaRows, formulas, messageOf, people, run, scratchDir, useSinkTestbed } from '../../test/engine/sink-testbed';

// The sinks on real DuckDB over Parquet snapshots in a local storage folder, and the webhook
// against a real HTTP server on 127.0.0.1.

useSinkTestbed();

describe('export_file', () => {
  const expected = [
    { name: 'Ada', note: 'plain', amount: 9.5, count: 3, day: '2024-01-15', at: '2024-01-15 12:34:56' },
    { name: '李雷', note: 'says "hi", then; leaves', amount: -1.25, count: null, day: null, at: null },
    { name: 'Ärger', note: 'two\nlines', amount: null, count: 9007199254740991, day: '1999-12-31', at: '2000-01-01 00:00:00' },
    { name: "O'Brien", note: '', amount: 0, count: 0, day: '2024-02-29', at: '2024-02-29 23:59:59' },
  ];

  it('writes JSON as one array of records', async () => {
    const out = await run('export_file', { format: 'json', file_name: 'people.json' });
    expect(JSON.parse(out.text())).toEqual(expected);
    expect(JSON.parse((await run('export_file', { format: 'json' }, empty)).text())).toEqual([]);
  });

  it('writes JSON Lines as one record per line', async () => {
    const lines = (await run('export_file', { format: 'jsonl' })).text().trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(expected);
  });

  it('writes XLSX with a header row, numbers as numbers and dates as dates', async () => {
    const out = await run('export_file', { format: 'xlsx', include_record_id: true });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(out.saved[0].path);
    const sheet = workbook.worksheets[0];
    const values = sheet
      .getSheetValues()
      .slice(1)
      .map((row) => (row as ExcelJS.CellValue[]).slice(1));
    const ids = (await datasets.records(people, { page: 1, pageSize: 10 })).items.map((r) => r._id);
    expect(values[0]).toEqual(['_id', 'name', 'note', 'amount', 'count', 'day', 'at']);
    expect(values[1]).toEqual([ids[0], 'Ada', 'plain', 9.5, 3, new Date('2024-01-15T00:00:00Z'), new Date('2024-01-15T12:34:56Z')]);
    // Empty cells are absent from exceljs' rows.
    expect(values[2]).toEqual([ids[1], '李雷', 'says "hi", then; leaves', -1.25]);
    expect(values[3]).toEqual([ids[2], 'Ärger', 'two\nlines', undefined, 9007199254740991, new Date('1999-12-31T00:00:00Z'), new Date('2000-01-01T00:00:00Z')]);
    expect(values.length).toBe(5);
    expect(sheet.getCell('F2').numFmt).toBe('yyyy-mm-dd');
  });

  it('writes formula-like texts as text cells, never as formulas (so XLSX needs no quote in front, unlike CSV)', async () => {
    const out = await run('export_file', { format: 'xlsx' }, formulas);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(out.saved[0].path);
    const sheet = workbook.worksheets[0];
    expect(sheet.getCell('C1').value).toBe('-delta');
    formulaRows.forEach(({ text, amount }, i) => {
      const cell = sheet.getCell(`A${i + 2}`);
      // A carriage return comes back as a line feed: XML reads a bare CR as one (no security matter).
      expect([text, cell.type, cell.value, cell.formula]).toEqual([text, ExcelJS.ValueType.String, text.replace('\r', '\n'), undefined]);
      expect(sheet.getCell(`B${i + 2}`).value).toBe(amount);
    });
  });

  it('refuses more records than an Excel sheet holds, before writing anything', async () => {
    const huge = { ...people, rowCount: 1_048_576 };
    const err = (await failure(run('export_file', { format: 'xlsx' }, huge))) as DomainError;
    expect(err).toBeInstanceOf(StepRunFailed);
    expect(messageOf(err)).toBe(
      'An Excel sheet holds at most 1,048,575 records, but the table has 1,048,576: filter it first, or export CSV or Parquet instead.',
    );
    expect(fs.readdirSync(scratchDir)).toEqual([]);
  });
});
