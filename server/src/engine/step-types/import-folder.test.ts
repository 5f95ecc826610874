import fs from 'node:fs';
import { datasetKey } from '../datasets';
import { translate } from '../../i18n/messages';
import { StepRunFailed } from '../runners';
import type { RowsSource, WriteDataset } from '../datasets/writer';
import { MAX_FOLDER_BATCH_CONTENT_BYTES } from './import-folder';
import { bed, failure, paramProblems, run, runner, useSourceTestbed, workbook } from '../../test/engine/source-testbed';

// The source steps on real DuckDB, reading real files from a folder as the engine hands them over.

useSourceTestbed();

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

  it(`holds at most ${MAX_FOLDER_BATCH_CONTENT_BYTES / 1024 / 1024} MB of contents in a batch: big files make smaller batches`, async () => {
    const folder = bed.addFolder('big texts');
    const text = (i: number) => `${String(i).padStart(2, '0')}${'é'.repeat(499_999)}`; // 1,000,000 bytes of UTF-8
    for (let i = 0; i < 40; i++) bed.addFile(`${String(i).padStart(2, '0')}.txt`, text(i), folder);
    // The batches as the dataset writer is handed them: their records and their contents' bytes.
    const seen: { records: number; bytes: number }[] = [];
    const ctx = bed.context();
    const datasets = new Proxy(ctx.datasets, {
      get(target, prop) {
        if (prop !== 'write') return Reflect.get(target, prop) as unknown;
        return (request: WriteDataset) => {
          const source = request.source as RowsSource;
          async function* watched() {
            for await (const batch of source.batches) {
              seen.push({ records: batch.length, bytes: batch.reduce((n, r) => n + Buffer.byteLength(String(r.content)), 0) });
              yield batch;
            }
          }
          return target.write({ ...request, source: { ...source, batches: watched() } });
        };
      },
    });
    const meta = await runner('import_folder').run({ ...ctx, datasets }, { folder, include_content: true });
    expect(meta.rowCount).toBe(40);
    // 33 files of 1,000,000 bytes fit in 32 MiB; the 34th starts the next batch.
    expect(seen).toEqual([
      { records: 33, bytes: 33_000_000 },
      { records: 7, bytes: 7_000_000 },
    ]);
    expect(seen.every((b) => b.bytes <= MAX_FOLDER_BATCH_CONTENT_BYTES)).toBe(true);
    const last = (await bed.datasets.records(meta, { page: 40, pageSize: 1 })).items[0];
    expect(last).toMatchObject({ file_name: '39.txt', size: 1_000_000, content: text(39) });
  }, 30_000);

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
