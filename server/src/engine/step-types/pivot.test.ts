import { store, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('pivot');

describe('pivot', () => {
  const sales = () =>
    store(
      'Sales',
      [
        { name: 'product', type: 'VARCHAR' },
        { name: 'month', type: 'VARCHAR' },
        { name: 'amount', type: 'BIGINT' },
      ],
      [
        { product: '茶', month: 'Jan', amount: 3 },
        { product: '茶', month: 'Jan', amount: 4 },
        { product: '茶', month: 'Feb', amount: null },
        { product: 'Coffee', month: 'Feb', amount: 5 },
        { product: null, month: 'Mar', amount: 1 },
      ],
    );

  it('spreads the listed values into columns, one row per key, ids from the key', async () => {
    const input = await sales();
    const params = { index: ['product'], pivot_column: 'month', values: ['Jan', 'Feb'], value_column: 'amount', function: 'sum' };
    const a = await output('pivot', [input], params);
    expect(a.rows).toEqual([
      { product: 'Coffee', Jan: null, Feb: 5 },
      { product: '茶', Jan: 7, Feb: null },
      { product: null, Jan: null, Feb: null },
    ]);
    expect((await output('pivot', [input], params)).ids).toEqual(a.ids);
    expect(new Set(a.ids).size).toBe(3);
    expect((await output('pivot', [input], { ...params, function: 'count' })).rows.map((r) => r.Jan)).toEqual([0, 2, 0]);
    expect((await output('pivot', [input], { ...params, index: [], function: 'first' })).rows).toEqual([{ Jan: 3, Feb: null }]);
    expect((await output('pivot', [input], { ...params, function: 'avg' })).meta.columns.at(-1)!.type).toBe('DOUBLE');
    expect(a.meta.columns.at(-1)!.type).toBe('BIGINT');
  });

  it('refuses more than 100 values, sums of text and unknown columns', async () => {
    const input = await sales();
    const params = { index: ['product'], pivot_column: 'month', values: ['Jan'], value_column: 'amount' };
    expect((await refused('pivot', [input], { ...params, values: Array.from({ length: 101 }, (_, i) => `v${i}`) }))[0]).toMatchObject({
      key: 'server.steps.pivotValues',
      loc: ['values'],
    });
    expect((await refused('pivot', [input], { ...params, value_column: 'month' }))[0]).toMatchObject({
      key: 'server.steps.notNumeric',
      loc: ['value_column'],
      values: { column: 'month' },
    });
    expect((await refused('pivot', [input], { ...params, pivot_column: 'mois' }))[0]).toMatchObject({
      key: 'server.steps.unknownColumn',
      loc: ['pivot_column'],
    });
  });
});
