import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { datasetKey, type DatasetMetadata, type JsonRecord } from '../datasets';
import { translate } from '../../i18n/messages';
import type { ParamValues } from '../params';
import { getRunner, StepParamsInvalid, StepRunFailed, type SourceRunner } from '.';
import { createRunnerTestbed, type RunnerTestbed } from './test-support';

// The source steps on real DuckDB, reading real files from a folder as the engine hands them over.

let bed: RunnerTestbed;
beforeAll(() => {
  bed = createRunnerTestbed();
});
afterAll(() => bed.close());

const runner = (id: string) => getRunner(id) as SourceRunner;

async function rowsOf(meta: DatasetMetadata): Promise<JsonRecord[]> {
  return (await bed.datasets.records(meta, { page: 1, pageSize: 1000 })).items.map(({ _id, ...rest }) => rest);
}

async function run(stepType: string, params: ParamValues, options: { sampleSize?: number | null } = {}) {
  const ctx = bed.context(options);
  const meta = await runner(stepType).run(ctx, params);
  expect(meta.id).toBe(ctx.output.datasetId);
  expect(meta.columns[0]).toEqual({ name: '_id', type: 'VARCHAR' });
  return { meta, rows: await rowsOf(meta), types: Object.fromEntries(meta.columns.slice(1).map((c) => [c.name, c.type])), ctx };
}

/** The English text a failed run shows. */
async function failure(stepType: string, params: ParamValues): Promise<string> {
  const err = await runner(stepType)
    .run(bed.context(), params)
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(StepRunFailed);
  const e = err as StepRunFailed;
  return translate('en', e.messageKey, e.values);
}

function paramProblems(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StepParamsInvalid);
    return (err as StepParamsInvalid).problems.map((p) => ({ loc: p.loc, msg: translate('en', p.key, p.values) }));
  }
  throw new Error('expected StepParamsInvalid');
}

describe('import_csv', () => {
  it('reads a header, infers types and logs what it read', async () => {
    const file = bed.addFile('people.csv', 'name,age,joined,score\nAda,36,2024-03-01,9.5\n李雷,28,2023-12-31,\n');
    const { meta, rows, types, ctx } = await run('import_csv', { file });
    expect(types).toEqual({ name: 'VARCHAR', age: 'BIGINT', joined: 'DATE', score: 'DOUBLE' });
    expect(rows).toEqual([
      { name: 'Ada', age: 36, joined: '2024-03-01', score: 9.5 },
      { name: '李雷', age: 28, joined: '2023-12-31', score: null },
    ]);
    expect(meta.rowCount).toBe(2);
    expect(ctx.lines).toEqual(['Read 2 record(s) and 4 column(s) from “people.csv”']);
    expect(ctx.updates.at(-1)).toEqual({ done: 2, total: 2, phase: 'done' });
    expect(runner('import_csv').outputColumns([], { file })).toEqual([]);
  });

  it('names columns column_1… without a header', async () => {
    const file = bed.addFile('plain.csv', 'Ada,36\nBob,41\n');
    const { rows } = await run('import_csv', { file, has_header: false });
    expect(rows).toEqual([
      { column_1: 'Ada', column_2: 36 },
      { column_1: 'Bob', column_2: 41 },
    ]);
  });

  it.each([
    ['semicolon', 'a;b\n1;x,y\n', { a: 1, b: 'x,y' }],
    ['tab', 'a\tb\n1\tx;y\n', { a: 1, b: 'x;y' }],
    ['pipe', 'a|b\n1|x y\n', { a: 1, b: 'x y' }],
    ['auto', 'a;b\n1;two\n3;four\n', { a: 1, b: 'two' }],
  ])('splits on the %s delimiter', async (delimiter, text, first) => {
    const file = bed.addFile(`d-${delimiter}.csv`, text);
    const { rows } = await run('import_csv', { file, delimiter });
    expect(rows[0]).toEqual(first);
  });

  it('decodes Latin-1 and UTF-16 files', async () => {
    const latin = bed.addFile('latin.csv', Buffer.from('name;city\nJosé;München\n', 'latin1'));
    expect((await run('import_csv', { file: latin, encoding: 'latin1' })).rows).toEqual([{ name: 'José', city: 'München' }]);
    const utf16 = bed.addFile('utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name,city\n李雷,北京\n', 'utf16le')]));
    expect((await run('import_csv', { file: utf16, encoding: 'utf-16le' })).rows).toEqual([{ name: '李雷', city: '北京' }]);
  });

  it('reads at most the sample size in a preview', async () => {
    const file = bed.addFile('many.csv', `n\n${Array.from({ length: 50 }, (_, i) => i).join('\n')}\n`);
    const { rows, ctx } = await run('import_csv', { file }, { sampleSize: 5 });
    expect(rows.map((r) => r.n)).toEqual([0, 1, 2, 3, 4]);
    expect(ctx.lines[0]).toContain('(preview: at most 5)');
  });

  it('fails clearly on an empty, a ragged or a missing file', async () => {
    expect(await failure('import_csv', { file: bed.addFile('empty.csv', '') })).toBe('The step failed while running: “empty.csv” is empty');
    expect(await failure('import_csv', { file: bed.addFile('ragged.csv', 'a,b\n1,2\n3,4,5\n6,7\n') })).toBe(
      'The step failed while running: “ragged.csv” is not a well-formed CSV: its lines do not all have the same number of values (check the delimiter, quotes and text encoding)',
    );
    // Past the rows DuckDB samples, the bad line is named.
    const long = `a,b\n${Array.from({ length: 30_000 }, (_, i) => `${i},${i}`).join('\n')}\n1,2,3\n`;
    expect(await failure('import_csv', { file: bed.addFile('long.csv', long) })).toBe(
      'The step failed while running: Line 30002 of “long.csv” has 3 values where the lines before it have 2: check that line (a missing quote or an extra delimiter)',
    );
    expect(await failure('import_csv', { file: 'no-such-file' })).toBe('The step failed while running: The file no-such-file is not among your files');
  });

  it('writes nothing once the run is stopped', async () => {
    const stop = new AbortController();
    stop.abort();
    const ctx = bed.context({ signal: stop.signal });
    const err = await runner('import_csv')
      .run(ctx, { file: bed.addFile('stopped.csv', 'a\n1\n') })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepRunFailed);
    expect(translate('en', (err as StepRunFailed).messageKey, (err as StepRunFailed).values)).toBe('The step failed while running: The run was stopped');
    await expect(bed.datasets.describe({ id: ctx.output.datasetId, ownerId: bed.ownerId } as DatasetMetadata)).rejects.toThrow();
  });

  it('refuses an unknown delimiter at the param', async () => {
    const file = bed.addFile('x.csv', 'a\n1\n');
    const err = await runner('import_csv')
      .run(bed.context(), { file, delimiter: 'colon' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepParamsInvalid);
    expect((err as StepParamsInvalid).problems).toEqual([
      { key: 'server.params.enum', loc: ['delimiter'], values: { values: 'auto, comma, semicolon, tab, pipe' } },
    ]);
  });
});

async function workbook(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

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

  it('fails clearly on ill-formed JSON, a broken workbook and an unknown ending', async () => {
    expect(await failure('import_file', { file: bed.addFile('bad.json', '{"a": 1,,}') })).toMatch(
      /^The step failed while running: Could not read “bad.json”: /,
    );
    expect(await failure('import_file', { file: bed.addFile('bad.xlsx', 'not a zip') })).toBe(
      'The step failed while running: “bad.xlsx” is not a readable Excel (.xlsx) workbook',
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

describe('import_folder', () => {
  it('makes one record per matching file, with subfolders and text content', async () => {
    const root = bed.addFolder('reports');
    const march = bed.addFolder('2024', root);
    bed.addFile('summary.md', '# Summary', root);
    bed.addFile('march.csv', 'a\n1\n', march);
    bed.addFile('photo.png', Buffer.from([1, 2, 3]), march);
    bed.addFile('elsewhere.csv', 'x', bed.addFolder('other'));

    const all = await run('import_folder', { folder: root, include_content: true });
    expect(all.rows).toEqual([
      { file_name: 'march.csv', path: '2024/march.csv', type: 'csv', size: 4, content: 'a\n1\n' },
      { file_name: 'photo.png', path: '2024/photo.png', type: 'png', size: 3, content: null },
      { file_name: 'summary.md', path: 'summary.md', type: 'md', size: 9, content: '# Summary' },
    ]);
    expect(all.meta.columns).toEqual(runner('import_folder').outputColumns([], { folder: root, include_content: true }));

    expect((await run('import_folder', { folder: root, pattern: '*.CSV' })).rows).toEqual([
      { file_name: 'march.csv', path: '2024/march.csv', type: 'csv', size: 4 },
    ]);
    expect((await run('import_folder', { folder: root, recursive: false })).rows.map((r) => r.path)).toEqual(['summary.md']);
    expect((await run('import_folder', { folder: root }, { sampleSize: 1 })).rows).toHaveLength(1);
  });

  describe('read: records', () => {
    /** A folder of data files: two CSVs with different columns (one in a subfolder), a JSONL, an empty CSV and a picture. */
    function salesFolder() {
      const root = bed.addFolder('sales');
      const north = bed.addFolder('north', root);
      bed.addFile('a.csv', 'id,amount\n1,9.5\n2,12\n', root);
      bed.addFile('b.jsonl', '{"id": 3, "AMOUNT": 7, "note": "late"}\n{"id": 4, "AMOUNT": null, "note": "李雷"}\n', root);
      bed.addFile('c.csv', 'id,region,day\n5,N,2024-03-01\n', north);
      bed.addFile('empty.csv', '', root);
      bed.addFile('header-only.csv', 'id,ignored\n', root);
      bed.addFile('photo.png', Buffer.from([1, 2, 3]), root);
      return root;
    }

    it('stacks every data file by column name, with the file name first and types widened', async () => {
      const folder = salesFolder();
      const { meta, rows, ctx } = await run('import_folder', { folder, read: 'records' });
      expect(meta.columns).toEqual([
        { name: '_id', type: 'VARCHAR' },
        { name: 'file_name', type: 'VARCHAR' },
        { name: 'id', type: 'BIGINT' },
        { name: 'amount', type: 'DOUBLE' },
        { name: 'note', type: 'VARCHAR' },
        { name: 'region', type: 'VARCHAR' },
        { name: 'day', type: 'DATE' },
      ]);
      // Path order: "a.csv" < "b.jsonl" < "empty.csv" < "header-only.csv" < "north/c.csv" < "photo.png".
      expect(rows).toEqual([
        { file_name: 'a.csv', id: 1, amount: 9.5, note: null, region: null, day: null },
        { file_name: 'a.csv', id: 2, amount: 12, note: null, region: null, day: null },
        { file_name: 'b.jsonl', id: 3, amount: 7, note: 'late', region: null, day: null },
        { file_name: 'b.jsonl', id: 4, amount: null, note: '李雷', region: null, day: null },
        { file_name: 'north/c.csv', id: 5, amount: null, note: null, region: 'N', day: '2024-03-01' },
      ]);
      expect(ctx.lines).toEqual([
        'Reading the records of the data files among 6 file(s) matching “*” (with subfolders)',
        'Skipped 1 file(s) that are not CSV, TSV, JSON, JSONL, XLSX or Parquet',
        'Skipped 2 file(s) without records',
        'Read 5 record(s) and 6 column(s) from 3 file(s) of the folder',
      ]);
      // The files' columns are known only once they are read; the listing's are known before.
      expect(runner('import_folder').outputColumns([], { folder, read: 'records' })).toEqual([]);
      expect(runner('import_folder').outputColumns([], { folder })).toEqual(runner('import_folder').outputColumns([], { folder, read: 'files' }));
    });

    it('reads Excel (first sheet) and Parquet files too, and only files matching the pattern', async () => {
      const root = bed.addFolder('mixed');
      const book = await workbook((wb) => {
        const sheet = wb.addWorksheet('Q1');
        sheet.addRow(['id', 'amount']);
        sheet.addRow([10, 1.25]);
      });
      bed.addFile('q1.xlsx', book, root);
      // A Parquet file of our own making: a dataset's snapshot, whose `_id`s the records keep.
      const source = await run('import_file', { file: bed.addFile('for-parquet.csv', 'id,amount\n11,2\n') });
      const local = await bed.datasets.files.open(datasetKey(source.meta.ownerId, source.meta.id));
      try {
        bed.addFile('q2.parquet', fs.readFileSync(local.path), root);
      } finally {
        local.release();
      }
      bed.addFile('notes.txt', 'not data', root);
      const both = await run('import_folder', { folder: root, read: 'records', pattern: 'q?.*' });
      expect(both.rows).toEqual([
        { file_name: 'q1.xlsx', id: 10, amount: 1.25 },
        { file_name: 'q2.parquet', id: 11, amount: 2 },
      ]);
      const ids = (await bed.datasets.records(both.meta, { page: 1, pageSize: 10 })).items.map((r) => r._id);
      expect(ids[1]).toBe((await bed.datasets.records(source.meta, { page: 1, pageSize: 10 })).items[0]._id);
      expect((await run('import_folder', { folder: root, read: 'records', pattern: '*.XLSX' })).rows).toEqual([{ file_name: 'q1.xlsx', id: 10, amount: 1.25 }]);
    });

    it('bounds a preview by the records of all files together', async () => {
      const folder = salesFolder();
      const { rows, ctx } = await run('import_folder', { folder, read: 'records' }, { sampleSize: 3 });
      expect(rows.map((r) => [r.file_name, r.id])).toEqual([
        ['a.csv', 1],
        ['a.csv', 2],
        ['b.jsonl', 3],
      ]);
      expect(ctx.lines.at(-1)).toBe('Read 3 record(s) and 4 column(s) from 2 file(s) of the folder (preview: at most 3)');
    });

    it('names the file that cannot be read, and refuses a file with its own file_name column', async () => {
      const root = bed.addFolder('broken');
      const sub = bed.addFolder('2024', root);
      bed.addFile('good.csv', 'a\n1\n', root);
      bed.addFile('ragged.csv', 'a,b\n1,2\n3,4,5\n6,7\n', sub);
      expect(await failure('import_folder', { folder: root, read: 'records' })).toBe(
        'The step failed while running: “2024/ragged.csv” is not a well-formed CSV: its lines do not all have the same number of values (check the delimiter, quotes and text encoding)',
      );
      const json = bed.addFolder('bad-json');
      bed.addFile('bad.json', '{"a": 1,,}', json);
      expect(await failure('import_folder', { folder: json, read: 'records' })).toMatch(/^The step failed while running: Could not read “bad.json”: /);
      const clash = bed.addFolder('clash');
      bed.addFile('list.csv', 'File_Name,size\nx.pdf,3\n', clash);
      expect(await failure('import_folder', { folder: clash, read: 'records' })).toBe(
        'The step failed while running: “list.csv” has its own column “File_Name”, the name this step gives the column of file names: rename that column in the file',
      );
    });

    it('reads nothing once the run is stopped', async () => {
      const stop = new AbortController();
      stop.abort();
      const ctx = bed.context({ signal: stop.signal });
      const err = await runner('import_folder')
        .run(ctx, { folder: salesFolder(), read: 'records' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StepRunFailed);
      expect(translate('en', (err as StepRunFailed).messageKey, (err as StepRunFailed).values)).toBe('The step failed while running: The run was stopped');
      expect(fs.readdirSync(ctx.files.scratchDir)).toEqual([]);
    });

    it('makes an empty table with the file name column when no file has records, and refuses an unknown way to read', async () => {
      const root = bed.addFolder('no-data');
      bed.addFile('readme.md', '# nothing', root);
      const { meta, rows } = await run('import_folder', { folder: root, read: 'records' });
      expect(meta.columns).toEqual([
        { name: '_id', type: 'VARCHAR' },
        { name: 'file_name', type: 'VARCHAR' },
      ]);
      expect(rows).toEqual([]);
      expect(paramProblems(() => runner('import_folder').outputColumns([], { folder: root, read: 'rows' }))).toEqual([
        { loc: ['read'], msg: 'Must be one of: files, records' },
      ]);
    });
  });
});

describe('import_dataset', () => {
  it('copies a dataset the owner has, keeping its record ids', async () => {
    const source = await run('import_csv', { file: bed.addFile('ids.csv', 'a\n1\n2\n3\n') });
    bed.own(source.meta);
    const ctx = bed.context({ sampleSize: 2 });
    const copy = await runner('import_dataset').run(ctx, { dataset: source.meta.id });
    const ids = async (meta: DatasetMetadata) => (await bed.datasets.records(meta, { page: 1, pageSize: 10 })).items.map((r) => r._id);
    expect(await ids(copy)).toEqual((await ids(source.meta)).slice(0, 2));
    expect(copy.columns).toEqual(source.meta.columns);
    expect(await failure('import_dataset', { dataset: 'someone-elses' })).toBe(
      'The step failed while running: The dataset someone-elses is not among your datasets',
    );
  });
});

describe('table_input', () => {
  const columns = [
    { name: 'city', type: 'text' },
    { name: 'rank', type: 'integer' },
    { name: 'score', type: 'number' },
    { name: 'capital', type: 'boolean' },
    { name: 'founded', type: 'date' },
  ];

  it('writes typed rows given as lists or objects, with exact output columns', async () => {
    const params = {
      columns,
      rows: [['Paris', 1, 9.5, true, '0508-01-01'], { city: '北京', rank: '2', score: '7.25', capital: 'TRUE' }, ['Lyon', '', null]],
    };
    const { meta, rows } = await run('table_input', params);
    expect(rows).toEqual([
      { city: 'Paris', rank: 1, score: 9.5, capital: true, founded: '0508-01-01' },
      { city: '北京', rank: 2, score: 7.25, capital: true, founded: null },
      { city: 'Lyon', rank: null, score: null, capital: null, founded: null },
    ]);
    expect(meta.columns).toEqual(runner('table_input').outputColumns([], params));
  });

  it('refuses bad columns, cells and sizes at the param', () => {
    const check = (params: ParamValues) => paramProblems(() => runner('table_input').outputColumns([], params));
    expect(check({ columns: [], rows: [] })).toEqual([
      { loc: ['columns'], msg: 'Give a JSON list of columns, each with a “name” and a “type” (text, integer, number, boolean or date).' },
    ]);
    expect(check({ columns: [{ name: 'a', type: 'money' }], rows: [] })).toEqual([
      { loc: ['columns', 0, 'type'], msg: 'Must be one of: text, integer, number, boolean, date' },
    ]);
    expect(
      check({
        columns: [
          { name: 'A', type: 'text' },
          { name: 'a', type: 'text' },
        ],
        rows: [],
      }),
    ).toEqual([{ loc: ['columns', 1, 'name'], msg: 'Two columns of the result would be named “a”.' }]);
    expect(check({ columns, rows: [['x', 'two']] })).toEqual([{ loc: ['rows', 0, 1], msg: 'Row 1, column “rank”: “two” is not a valid integer value.' }]);
    expect(check({ columns, rows: [{ city: 'x', founded: '2024-02-30' }] })).toEqual([
      { loc: ['rows', 0, 'founded'], msg: 'Row 1, column “founded”: “2024-02-30” is not a valid date value.' },
    ]);
    expect(check({ columns, rows: [{ town: 'x' }] })).toEqual([
      { loc: ['rows', 0, 'town'], msg: 'Row 1 names column “town”, which is not among the table’s columns.' },
    ]);
    expect(check({ columns, rows: [[1, 2, 3, 4, 5, 6]] })).toEqual([{ loc: ['rows', 0], msg: 'Row 1 has 6 values but the table has 5 columns.' }]);
    expect(check({ columns, rows: [['x'.repeat(10_001)]] })).toEqual([
      { loc: ['rows', 0, 0], msg: 'Row 1, column “city”: a cell holds at most 10000 characters.' },
    ]);
    expect(check({ columns, rows: Array.from({ length: 1001 }, () => []) })).toEqual([
      { loc: ['rows'], msg: 'A typed-in table holds at most 1000 rows and 100 columns.' },
    ]);
  });
});

describe('import_http_json', () => {
  let server: http.Server;
  let base: string;
  const calls: string[] = [];
  const items = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}`, price: i + 0.5 }));
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      calls.push(`${url.pathname}${url.search} ${req.headers.authorization ?? ''}`.trim());
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/paged') {
        const page = Number(url.searchParams.get('p'));
        return json(200, { data: { items: items.slice((page - 1) * 2, page * 2) } });
      }
      if (url.pathname === '/cursor') {
        const at = Number(url.searchParams.get('after') ?? 0);
        return json(200, { results: items.slice(at, at + 2), meta: { next: at + 2 < items.length ? at + 2 : null } });
      }
      if (url.pathname === '/linked') {
        const page = Number(url.searchParams.get('page') ?? 1);
        const next: Record<string, string> = page < 3 ? { link: `</linked?page=${page + 1}>; rel="next"` } : {};
        return json(200, items.slice((page - 1) * 2, page * 2), next);
      }
      if (url.pathname === '/names') return json(200, ['a', 'b']);
      if (url.pathname === '/html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<p>hi</p>');
      }
      json(404, { error: 'no' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const runApi = (params: ParamValues, options: { sampleSize?: number; vars?: Record<string, unknown> } = {}) => {
    const ctx = bed.context(options);
    return runner('import_http_json')
      .run(ctx, params)
      .then(async (meta) => ({ meta, rows: await rowsOf(meta), ctx }));
  };

  it('follows page numbers until a page is empty, with headers from variables', async () => {
    calls.length = 0;
    const { rows, meta } = await runApi(
      { url: `${base}/paged?q={{var.q}}`, headers: { Authorization: 'Bearer {{var.token}}' }, records_path: 'data.items', pagination: 'page', page_param: 'p' },
      { vars: { q: 'a b', token: 's3cret' } },
    );
    expect(rows).toEqual(items);
    expect(meta.columns.slice(1)).toEqual([
      { name: 'id', type: 'BIGINT' },
      { name: 'name', type: 'VARCHAR' },
      { name: 'price', type: 'DOUBLE' },
    ]);
    expect(calls).toEqual([
      '/paged?q=a+b&p=1 Bearer s3cret',
      '/paged?q=a+b&p=2 Bearer s3cret',
      '/paged?q=a+b&p=3 Bearer s3cret',
      '/paged?q=a+b&p=4 Bearer s3cret',
    ]);
  });

  it('follows a cursor and a Link header, stopping at max_pages and the sample size', async () => {
    expect((await runApi({ url: `${base}/cursor`, records_path: 'results', pagination: 'cursor', page_param: 'after', next_path: 'meta.next' })).rows).toEqual(
      items,
    );
    const linked = await runApi({ url: `${base}/linked`, pagination: 'next_link', max_pages: 2 });
    expect(linked.rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(linked.ctx.lines[0]).toBe('Stopped after 2 page(s), the most this step may call (max_pages)');
    calls.length = 0;
    expect((await runApi({ url: `${base}/linked`, pagination: 'next_link' }, { sampleSize: 3 })).rows.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(calls).toHaveLength(2);
    expect((await runApi({ url: `${base}/names` })).rows).toEqual([{ value: 'a' }, { value: 'b' }]);
  });

  it('fails clearly on an error status, a non-JSON answer, a missing path or an unknown variable', async () => {
    expect(await failure('import_http_json', { url: `${base}/missing?key=secret` })).toBe(
      `The step failed while running: GET ${base}/missing answered HTTP 404`,
    );
    expect(await failure('import_http_json', { url: `${base}/html` })).toBe(
      `The step failed while running: GET ${base}/html did not answer JSON (Content-Type: text/html)`,
    );
    expect(await failure('import_http_json', { url: `${base}/paged?p=1`, records_path: 'data.rows' })).toBe(
      `The step failed while running: The answer of GET ${base}/paged has nothing at “data.rows”`,
    );
    const blocked = await failure('import_http_json', { url: 'http://10.0.0.1/x' });
    expect(blocked).toMatch(/^The step failed while running: GET http:\/\/10\.0\.0\.1\/x: /);
    const err = await runner('import_http_json')
      .run(bed.context(), { url: `${base}/x?k={{var.nope}}` })
      .catch((e: unknown) => e);
    expect((err as StepParamsInvalid).problems).toEqual([{ key: 'server.steps.unresolvedReference', loc: ['url'], values: { reference: '{{var.nope}}' } }]);
  });
});
