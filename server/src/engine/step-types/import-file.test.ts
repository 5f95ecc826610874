import fs from 'node:fs';
import { datasetKey } from '../datasets';
import { translate } from '../../i18n/messages';
import { StepParamsInvalid } from '../runners';
import { bed, failure, run, runner, useSourceTestbed, workbook } from '../../test/engine/source-testbed';
import { tinyCellsWorkbook, withDeclaredSize } from '../../test/engine/xlsx-bomb';

// The source steps on real DuckDB, reading real files from a folder as the engine hands them over.

useSourceTestbed();

describe('import_file', () => {
  it('reads a JSON array and JSON lines alike', async () => {
    const array = bed.addFile(
      'a.json',
      JSON.stringify([
        { id: 1, tags: 'x', ok: true },
        { id: 2, tags: 'y', ok: false },
      ]),
    );
    const lines = bed.addFile('a.ndjson', '{"id":1,"tags":"x","ok":true}\n{"id":2,"tags":"y","ok":false}\n');
    const fromArray = await run('import_file', { file: array });
    const fromLines = await run('import_file', { file: lines });
    expect(fromArray.rows).toEqual([
      { id: 1, tags: 'x', ok: true },
      { id: 2, tags: 'y', ok: false },
    ]);
    expect(fromLines.rows).toEqual(fromArray.rows);
    expect(fromLines.types).toEqual({ id: 'BIGINT', tags: 'VARCHAR', ok: 'BOOLEAN' });
  });

  it('reads TSV, Parquet and a format chosen over the name', async () => {
    expect((await run('import_file', { file: bed.addFile('t.tsv', 'a\tb\n1\tx,y\n') })).rows).toEqual([{ a: 1, b: 'x,y' }]);
    expect((await run('import_file', { file: bed.addFile('data.txt', '{"a":1}\n'), format: 'jsonl' })).rows).toEqual([{ a: 1 }]);
    // A Parquet file of our own making: a dataset's snapshot, as DuckDB wrote it.
    const source = await run('import_file', { file: bed.addFile('s.csv', 'k,v\na,1\nb,2\n') });
    const local = await bed.datasets.files.open(datasetKey(source.meta.ownerId, source.meta.id));
    try {
      const parquet = bed.addFile('s.parquet', fs.readFileSync(local.path));
      const { rows } = await run('import_file', { file: parquet });
      expect(rows).toEqual([
        { k: 'a', v: 1 },
        { k: 'b', v: 2 },
      ]);
    } finally {
      local.release();
    }
  });

  it('reads an Excel sheet by name, with numbers, dates and text', async () => {
    const file = bed.addFile(
      'book.xlsx',
      await workbook((wb) => {
        wb.addWorksheet('Notes').addRow(['ignore me']);
        const sheet = wb.addWorksheet('Orders');
        sheet.addRow(['order', 'amount', 'day', 'customer', '']);
        sheet.addRow([1, 9.5, new Date(Date.UTC(2024, 2, 1)), 'Ada', 'x']);
        sheet.addRow([2, 12, new Date(Date.UTC(2024, 11, 31)), '李雷', null]);
      }),
    );
    const { rows, types } = await run('import_file', { file, sheet: 'Orders' });
    expect(types).toEqual({ order: 'BIGINT', amount: 'DOUBLE', day: 'DATE', customer: 'VARCHAR', column_5: 'VARCHAR' });
    expect(rows).toEqual([
      { order: 1, amount: 9.5, day: '2024-03-01', customer: 'Ada', column_5: 'x' },
      { order: 2, amount: 12, day: '2024-12-31', customer: '李雷', column_5: null },
    ]);
    expect(await failure('import_file', { file, sheet: 'Nope' })).toBe(
      'The step failed while running: “book.xlsx” has no sheet “Nope”; its sheets are “Notes”, “Orders”',
    );
    expect((await run('import_file', { file })).rows).toEqual([]);
  });

  it('fails clearly on ill-formed JSON, a broken workbook, a workbook bomb and an unknown ending', async () => {
    expect(await failure('import_file', { file: bed.addFile('bad.json', '{"a": 1,,}') })).toMatch(
      /^The step failed while running: Could not read “bad.json”: /,
    );
    expect(await failure('import_file', { file: bed.addFile('bad.xlsx', 'not a zip') })).toBe(
      'The step failed while running: “bad.xlsx” is not a readable Excel (.xlsx) workbook',
    );
    // A workbook bomb: its sheet says it unpacks to 4 GB, refused before it is parsed (sources/xlsx.test.ts has the other bounds).
    const bomb = bed.addFile('bomb.xlsx', withDeclaredSize(await tinyCellsWorkbook(10, 2), undefined, 0xf000_0000));
    expect(await failure('import_file', { file: bomb })).toBe(
      '“bomb.xlsx” unpacks to more than 200 MB of sheet data, the most an Excel file may hold here: save the sheet as CSV and import that instead.',
    );
    const err = await runner('import_file')
      .run(bed.context(), { file: bed.addFile('notes.doc', 'x') })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepParamsInvalid);
    const p = (err as StepParamsInvalid).problems[0];
    expect([p.loc, translate('en', p.key, p.values)]).toEqual([
      ['format'],
      'The format of “notes.doc” cannot be told from its name: choose it under Format (CSV, TSV, JSON, JSONL, XLSX or Parquet).',
    ]);
  });
});
