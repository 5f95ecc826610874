import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config/config';
import { Datasets, DatasetNotFound, DatasetReader, type DatasetMetadata, type RecordsQuery } from '.';
import { allPages, fromOutside, localDatasets, owner, queryError } from '../../test/engine/datasets-testbed';

// Real DuckDB over real Parquet files in a local storage folder, as `npm start` runs it: hostile
// names and values, and a dataset big enough for ordered copies (datasets.test.ts has the rest).

const bed = localDatasets();

// ---------- names and values that try to be SQL ----------

describe('hostile column names and values', () => {
  const evil = ['a"b', '"; DROP TABLE x; --', "it's", 'file_row_number', '__proto__', 'Ünïcødé 列'];
  let ds: DatasetMetadata;
  beforeAll(async () => {
    ds = await bed.datasets.write({
      ownerId: owner,
      name: 'Evil',
      source: {
        columns: evil.map((name) => ({ name, type: 'VARCHAR' as const })),
        batches: [Array.from({ length: 30 }, (_, i) => Object.fromEntries(evil.map((name) => [name, i === 3 ? `'; DROP TABLE t; --` : `${name} ${i}`])))],
      },
    });
  });

  it('stores, selects, sorts and filters columns with any name', async () => {
    expect(ds.columns.map((c) => c.name)).toEqual(['_id', ...evil]);
    const { items } = await bed.datasets.records(ds, {
      columns: ['"; DROP TABLE x; --', '__proto__'],
      filters: [{ column: 'a"b', op: 'starts_with', value: 'a"b 1' }],
      sort: [{ column: "it's", direction: 'desc' }],
    });
    expect(items.map((r) => r['"; DROP TABLE x; --'])).toEqual([
      '"; DROP TABLE x; -- 19',
      '"; DROP TABLE x; -- 18',
      '"; DROP TABLE x; -- 17',
      '"; DROP TABLE x; -- 16',
      '"; DROP TABLE x; -- 15',
      '"; DROP TABLE x; -- 14',
      '"; DROP TABLE x; -- 13',
      '"; DROP TABLE x; -- 12',
      '"; DROP TABLE x; -- 11',
      '"; DROP TABLE x; -- 10',
      '"; DROP TABLE x; -- 1',
    ]);
    expect(Object.getPrototypeOf(items[0])).toBe(Object.prototype);
    expect(Object.keys(items[0])).toEqual(['_id', '"; DROP TABLE x; --', '__proto__']);
  });

  it('pages correctly even when a column is called file_row_number', async () => {
    const paged = await allPages(bed.datasets, ds, {}, 4);
    expect(paged.map((r) => r['Ünïcødé 列'])).toEqual(Array.from({ length: 30 }, (_, i) => (i === 3 ? `'; DROP TABLE t; --` : `Ünïcødé 列 ${i}`)));
  });

  it('takes injection attempts in values literally and in names as unknown columns', async () => {
    for (const value of [`' OR '1'='1`, `'; DROP TABLE t; --`, `"); SELECT 1; --`, `\\' OR 1=1`]) {
      const page = await bed.datasets.records(ds, {
        filters: [
          { column: "it's", op: '=', value },
          { column: 'a"b', op: 'contains', value },
        ],
      });
      expect(page.total).toBe(value === `'; DROP TABLE t; --` ? 1 : 0);
    }
    expect(await queryError(bed.datasets.records(ds, { columns: ['"a""b"'], sort: [{ column: '1; DROP TABLE t', direction: 'asc' }] }))).toMatchObject([
      { code: 'unknown_column', values: { column: '"a""b"' } },
      { code: 'unknown_column', values: { column: '1; DROP TABLE t' } },
    ]);
    expect(await queryError(bed.datasets.records(ds, { sort: [{ column: 'a"b', direction: fromOutside<'asc'>('desc; DROP TABLE t') }] }))).toMatchObject([
      { code: 'bad_value', loc: ['sort', 0, 'direction'] },
    ]);
    // Still all there.
    expect((await bed.datasets.describe(ds)).rowCount).toBe(30);
  });

  it('cannot reach files outside its own folders, whatever SQL a step writes', async () => {
    await expect(bed.datasets.write({ ownerId: owner, name: 'Sneaky', source: { sql: () => `SELECT * FROM read_csv('/etc/passwd')` } })).rejects.toThrow(
      /Permission Error/,
    );
    await expect(
      bed.datasets.write({ ownerId: owner, name: 'Sneaky', source: { sql: () => `SELECT 1 AS x; COPY (SELECT 1) TO '/tmp/stepwise-escape.csv'` } }),
    ).rejects.toThrow();
    expect(fs.existsSync('/tmp/stepwise-escape.csv')).toBe(false);
  });
});

// ---------- paging and sorting a bigger dataset ----------

describe('a 5,000-row dataset', () => {
  let big: DatasetMetadata;
  const N = 5000;
  beforeAll(async () => {
    big = await bed.datasets.write({
      ownerId: owner,
      name: 'Big',
      source: {
        sql: () => `SELECT i AS n, (i * 7919) % 100 AS bucket, CASE WHEN i % 10 = 0 THEN NULL ELSE 'city ' || (i % 13) END AS city FROM range(${N}) t(i)`,
      },
    });
  });

  it('pages deep in file order without missing or repeating a record', async () => {
    const page = await bed.datasets.records(big, { page: 250, pageSize: 20 });
    expect(page.total).toBe(N);
    expect(page.items.map((r) => r.n)).toEqual(Array.from({ length: 20 }, (_, i) => 4980 + i));
    const last = await bed.datasets.records(big, { page: 6, pageSize: 1000 });
    expect(last.items).toEqual([]);
  });

  it('sorted pages come from an ordered copy once it is built, with the same answers', async () => {
    const query: RecordsQuery = { sort: [{ column: 'bucket', direction: 'desc' }], filters: [{ column: 'city', op: 'is_not_null' }], page: 3, pageSize: 100 };
    const expected = Array.from({ length: N }, (_, n) => ({ n, bucket: (n * 7919) % 100 }))
      .filter((r) => r.n % 10 !== 0)
      .sort((a, b) => b.bucket - a.bucket || a.n - b.n)
      .slice(200, 300)
      .map((r) => r.n);
    const filesBefore = bed.datasets.files.usage().files;
    const direct = await bed.datasets.records(big, query);
    expect(direct.items.map((r) => r.n)).toEqual(expected);
    expect(direct.total).toBe(4500);
    await bed.datasets.reader.idle();
    expect(bed.datasets.files.usage().files).toBe(filesBefore + 1);
    const fromCopy = await bed.datasets.records(big, query);
    expect(fromCopy).toEqual(direct);
    // Unfiltered, deep, from the copy: still the asked-for order.
    const deep = await bed.datasets.records(big, { sort: [{ column: 'bucket', direction: 'desc' }], page: 40, pageSize: 100 });
    const all = Array.from({ length: N }, (_, n) => ({ n, bucket: (n * 7919) % 100 })).sort((a, b) => b.bucket - a.bucket || a.n - b.n);
    expect(deep.items.map((r) => r.n)).toEqual(all.slice(3900, 4000).map((r) => r.n));
  });

  it('pages a filter the same whether its matches are kept or only counted', async () => {
    const countingOnly = new DatasetReader(bed.datasets.pool, bed.datasets.files, { selectionMaxRows: 10 });
    const filters: RecordsQuery['filters'] = [{ column: 'city', op: 'contains', value: 'CITY 1' }];
    const expected = Array.from({ length: N }, (_, n) => n).filter((n) => n % 10 !== 0 && [1, 10, 11, 12].includes(n % 13));
    for (const reader of [bed.datasets.reader, countingOnly]) {
      for (const page of [1, 7, 23]) {
        const answer = await reader.records(big, { filters, page, pageSize: 50 });
        expect(answer.total).toBe(expected.length);
        expect(answer.items.map((r) => r.n)).toEqual(expected.slice((page - 1) * 50, page * 50));
      }
    }
  });

  it('finds a record by _id', async () => {
    const { items } = await bed.datasets.records(big, { page: 123, pageSize: 10 });
    expect(await bed.datasets.record(big, items[4]._id as string)).toMatchObject({ n: 1224 });
  });
});

it('a dataset missing from the storage is not found', async () => {
  const ref = { storageKey: `datasets/${owner}/00000000-0000-4000-8000-000000000000.parquet` };
  await expect(bed.datasets.describe(ref)).rejects.toBeInstanceOf(DatasetNotFound);
  await expect(bed.datasets.records(ref, {})).rejects.toBeInstanceOf(DatasetNotFound);
});

it('closes while an ordered copy is being built, leaving no half-written file', async () => {
  const config = loadConfig({ DATA_DIR: path.join(bed.dir, 'closing'), DUCKDB_THREADS: '1' });
  const log = { debug: jest.fn(), info: jest.fn(), warn: jest.fn(), error: jest.fn() };
  const own = new Datasets({ storage: bed.storage, config: config.datasets, orderedCopyMinRows: 1, log });
  const meta = await own.write({ ownerId: owner, name: 'Closing', source: { sql: () => `SELECT i AS n, md5(i::VARCHAR) AS h FROM range(300000) t(i)` } });
  await own.records(meta, { sort: [{ column: 'h', direction: 'asc' }] });
  await own.close();
  expect(log.warn).not.toHaveBeenCalled();
  expect(fs.readdirSync(config.datasets.cacheDir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  await expect(own.records(meta, {})).rejects.toThrow(/closed/);
});
