import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config/config';
import { createStorage } from '../../storage';
import { Datasets, InvalidRecordsQuery, type DatasetMetadata } from '.';

// Comparisons on real DuckDB over real Parquet files: the cases the HTTP tests leave to the engine.

const owner = '6c0f8f8e-2f4e-4f57-9d7a-3b8f1f6c2a11';
let dir: string;
let datasets: Datasets;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-compare-'));
  const config = loadConfig({ DATA_DIR: dir, DUCKDB_THREADS: '2', DUCKDB_MEMORY_LIMIT: '512MB' });
  datasets = new Datasets({ storage: createStorage(config).storage, config: config.datasets });
});
afterAll(async () => {
  await datasets.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const fromSql = (sql: string): Promise<DatasetMetadata> => datasets.write({ ownerId: owner, name: 'd', source: { sql: () => sql } });

describe('DatasetComparer', () => {
  it('matches by a key whose name needs quoting and whose type changed, and compares lists and structs', async () => {
    const before = await fromSql(
      `SELECT * FROM (VALUES (1, 'a', [1, 2], {'x': 1}), (2, 'b', NULL, {'x': 2}), (3, 'c', [3], NULL)) t("the ""id""", v, tags, info)`,
    );
    const after = await fromSql(
      `SELECT * FROM (VALUES ('1', 'a', [1, 2], {'x': 1}), ('2', 'b', NULL, {'x': 3}), ('3', 'c', [3, 4], NULL)) t("the ""id""", v, tags, info)`,
    );
    const result = await datasets.compare(before, after, { key: 'the "id"' });
    expect(result.schema.typeChanged).toEqual([{ name: 'the "id"', before: 'INTEGER', after: 'VARCHAR' }]);
    expect(result.counts).toEqual({ added: 0, removed: 0, changed: 2, unchanged: 1 });
    expect(result.items).toEqual([
      { status: 'changed', key: '2', changes: [{ column: 'info', before: { x: 2 }, after: { x: 3 } }] },
      { status: 'changed', key: '3', changes: [{ column: 'tags', before: [3], after: [3, 4] }] },
    ]);
  });

  it('keeps _id out of the comparison unless it is the key, and compares empty datasets', async () => {
    const base = await fromSql(`SELECT * FROM (VALUES ('k1', 1), ('k2', 2)) t(k, n)`);
    // A later run makes new _ids for the same records: no change by k.
    const rerun = await fromSql(`SELECT * FROM (VALUES ('k1', 1), ('k2', 2)) t(k, n)`);
    expect((await datasets.compare(base, rerun, { key: 'k' })).counts).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 2 });
    // By _id the two runs share no record.
    expect((await datasets.compare(base, rerun, { key: '_id' })).counts).toEqual({ added: 2, removed: 2, changed: 0, unchanged: 0 });
    // Records carried through keep their _id: a step that keeps it compares by it.
    const carried = await datasets.write({
      ownerId: owner,
      name: 'd',
      inputs: [base],
      source: { sql: ([input]) => `SELECT _id, k, n * 10 AS n FROM ${input}` },
    });
    const byId = await datasets.compare(base, carried, { key: '_id' });
    expect(byId.counts).toEqual({ added: 0, removed: 0, changed: 2, unchanged: 0 });
    expect(byId.items.map((i) => i.changes)).toEqual([[{ column: 'n', before: 1, after: 10 }], [{ column: 'n', before: 2, after: 20 }]]);
    const empty = await fromSql(`SELECT * FROM (VALUES ('k1', 1)) t(k, n) WHERE false`);
    const all = await datasets.compare(empty, base, { key: 'k', show: 'added' });
    expect(all).toMatchObject({ counts: { added: 2, removed: 0, changed: 0, unchanged: 0 }, total: 2 });
    expect(all.items.map((i) => i.record?.k)).toEqual(['k1', 'k2']);
  });

  it('refuses a missing key, a repeated or null key, and pages past the bounds', async () => {
    const a = await fromSql(`SELECT * FROM (VALUES ('x', 1), ('x', 2), (NULL, 3)) t(k, n)`);
    const b = await fromSql(`SELECT * FROM (VALUES ('x', 1)) t(k, n)`);
    const issues = async (promise: Promise<unknown>) => {
      const err = await promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvalidRecordsQuery);
      return (err as InvalidRecordsQuery).issues.map(({ key, loc, values }) => ({ key, loc, values }));
    };
    expect(await issues(datasets.compare(a, b, { key: 'nope' }))).toEqual([
      { key: 'server.datasets.compareKeyMissing', loc: ['key'], values: { column: 'nope' } },
    ]);
    // One repeat and one null: two records the key cannot tell apart.
    expect(await issues(datasets.compare(a, b, { key: 'k' }))).toEqual([
      { key: 'server.datasets.compareKeyNotUnique', loc: ['key'], values: { column: 'k', count: 2 } },
    ]);
    expect(await issues(datasets.compare(b, b, { key: 'k', pageSize: 201 }))).toEqual([
      { key: 'server.datasets.badPageSize', loc: ['page_size'], values: { max: 200 } },
    ]);
    expect(await issues(datasets.compare(b, b, { key: 'k', page: 0 }))).toEqual([
      { key: 'server.datasets.badPage', loc: ['page'], values: { max: 1_000_000 } },
    ]);
  });
});
