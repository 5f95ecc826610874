import type { DatasetMetadata, RowColumn } from '../datasets';
import { StepParamsInvalid } from '../runners';
import { people, peopleColumns, empty, store, rowsOf, runner, output, refused, names, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('top-n-per-group');

const salesColumns: RowColumn[] = [
  { name: 'category', type: 'VARCHAR' },
  { name: 'product', type: 'VARCHAR' },
  { name: 'sold', type: 'BIGINT' },
];
let sales: DatasetMetadata;
let salesIds: Record<string, string>;
beforeAll(async () => {
  sales = await store('Sales', salesColumns, [
    { category: 'fruit', product: 'apple', sold: 10 },
    { category: 'veg', product: 'leek', sold: 4 },
    { category: 'fruit', product: 'pear', sold: 30 },
    { category: 'fruit', product: 'plum', sold: 20 },
    { category: 'veg', product: 'kale', sold: 9 },
    { category: null, product: 'mystery', sold: 1 },
    { category: 'veg', product: 'bean', sold: null },
  ]);
  salesIds = Object.fromEntries((await rowsOf(sales)).map((r) => [r.product as string, r._id as string]));
});

const products = (rows: Record<string, unknown>[]) => rows.map((r) => r.product);

describe('top_n_per_group', () => {
  it('keeps the top N rows of each group (empty values last, a NULL group its own), in the input order, with their ids', async () => {
    const { rows, ids } = await output('top_n_per_group', [sales], { group_by: ['category'], columns: ['sold'], count: 2 });
    expect(products(rows)).toEqual(['leek', 'pear', 'plum', 'kale', 'mystery']);
    expect(ids).toEqual(['leek', 'pear', 'plum', 'kale', 'mystery'].map((p) => salesIds[p]));
    expect(rows[0]).toEqual({ category: 'veg', product: 'leek', sold: 4 });
  });

  it('takes the bottom N when ascending, and puts empty values first when asked', async () => {
    expect(products((await output('top_n_per_group', [sales], { group_by: ['category'], columns: ['sold'], direction: 'ascending', count: 1 })).rows)).toEqual([
      'apple',
      'leek',
      'mystery',
    ]);
    expect(products((await output('top_n_per_group', [sales], { group_by: ['category'], columns: ['sold'], nulls: 'first', count: 1 })).rows)).toEqual([
      'pear',
      'mystery',
      'bean',
    ]);
  });

  it('ranks the whole table when no group columns are given, later order columns breaking ties', async () => {
    expect(names((await output('top_n_per_group', [people], { columns: ['age'], count: 2 })).rows)).toEqual(['Ärger', "O'Brien"]);
    expect(names((await output('top_n_per_group', [people], { group_by: [], columns: ['age', 'score'], direction: 'ascending', count: 2 })).rows)).toEqual([
      '李雷',
      ' ada ',
    ]);
    expect((await output('top_n_per_group', [empty], { columns: ['age'], count: 3 })).rows).toEqual([]);
  });

  it('keeps exactly N with ties in input order, or every row tied with the N-th', async () => {
    // Ages ascending: 28 (李雷), then 36 twice (Ada, " ada ").
    const first = await output('top_n_per_group', [people], { columns: ['age'], direction: 'ascending', count: 2 });
    expect(names(first.rows)).toEqual(['Ada', '李雷']);
    const all = await output('top_n_per_group', [people], { columns: ['age'], direction: 'ascending', count: 2, ties: 'all' });
    expect(names(all.rows)).toEqual(['Ada', '李雷', ' ada ']);
  });

  it('takes N from a variable and binds it as a parameter, never in the SQL text', async () => {
    expect(products((await output('top_n_per_group', [sales], { group_by: ['category'], columns: ['sold'], count: '{{var.n}}' }, { n: 1 })).rows)).toEqual([
      'pear',
      'kale',
      'mystery',
    ]);
    const query = runner('top_n_per_group').toSql([{ table: 'input_table', columns: [{ name: '_id', type: 'VARCHAR' }, ...peopleColumns] }], {
      columns: ['age'],
      count: 987654,
    });
    expect(query.params).toEqual([987654]);
    expect(query.sql).not.toContain('987654');
  });

  it('refuses columns the input lacks, naming the param and its place', async () => {
    expect((await refused('top_n_per_group', [people], { group_by: ['city', 'town'], columns: ['age'] }))[0]).toMatchObject({
      key: 'server.steps.unknownColumn',
      loc: ['group_by', 1],
    });
    expect((await refused('top_n_per_group', [people], { columns: ['height'] }))[0]).toMatchObject({ key: 'server.steps.unknownColumn', loc: ['columns', 0] });
    expect(() => runner('top_n_per_group').outputColumns([people.columns], { group_by: ['nope'], columns: ['age'] })).toThrow(StepParamsInvalid);
  });

  it('refuses a missing order, a count outside 1..1,000,000 or not whole, and unknown choices', async () => {
    expect((await refused('top_n_per_group', [people], { group_by: ['city'] }))[0]).toMatchObject({ key: 'server.params.required', loc: ['columns'] });
    expect((await refused('top_n_per_group', [people], { columns: ['age'], count: 0 }))[0]).toMatchObject({
      key: 'server.params.minimum',
      loc: ['count'],
      values: { limit: 1 },
    });
    expect((await refused('top_n_per_group', [people], { columns: ['age'], count: 1.5 }))[0]).toMatchObject({ key: 'server.params.integer', loc: ['count'] });
    expect((await refused('top_n_per_group', [people], { columns: ['age'], count: 1_000_001 }))[0]).toMatchObject({
      key: 'server.params.maximum',
      loc: ['count'],
      values: { limit: 1_000_000 },
    });
    expect((await refused('top_n_per_group', [people], { columns: ['age'], ties: 'some' }))[0]).toMatchObject({ key: 'server.params.enum', loc: ['ties'] });
    expect((await refused('top_n_per_group', [people], { columns: ['age'], direction: 'up' }))[0]).toMatchObject({
      key: 'server.params.enum',
      loc: ['direction'],
    });
  });
});
