import { store, run, output, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('pipeline');

describe('a chained pipeline', () => {
  it('import → filter → add_column → aggregate → sort gives exactly the expected rows', async () => {
    const orders = await store(
      'Orders',
      [
        { name: 'customer', type: 'VARCHAR' },
        { name: 'country', type: 'VARCHAR' },
        { name: 'qty', type: 'BIGINT' },
        { name: 'price', type: 'DOUBLE' },
        { name: 'status', type: 'VARCHAR' },
      ],
      [
        { customer: 'Ada', country: 'UK', qty: 2, price: 10, status: 'paid' },
        { customer: 'Jörg', country: 'DE', qty: 1, price: 99.5, status: 'paid' },
        { customer: '王芳', country: 'CN', qty: 3, price: 5, status: 'paid' },
        { customer: 'Ada', country: 'UK', qty: 1, price: 20, status: 'refunded' },
        { customer: 'Ben', country: 'UK', qty: null, price: 7, status: 'paid' },
        { customer: 'Lena', country: 'DE', qty: 4, price: 2.5, status: 'paid' },
        { customer: 'X', country: null, qty: 1, price: 1, status: null },
      ],
    );
    const paid = await run('filter', [orders], { condition: 'status = {{var.status}}' }, { status: 'paid' });
    const withTotal = await run('add_column', [paid], { new_column: 'total', expression: 'coalesce(qty, 0) * price' });
    const byCountry = await run('aggregate', [withTotal], {
      group_by: ['country'],
      aggregations: [
        { column: '*', function: 'count', as: 'orders' },
        { column: 'total', function: 'sum', as: 'revenue' },
      ],
    });
    const sorted = await output('sort', [byCountry], { columns: ['revenue'], direction: 'descending' });
    expect(sorted.meta.columns).toEqual([
      { name: '_id', type: 'VARCHAR' },
      { name: 'country', type: 'VARCHAR' },
      { name: 'orders', type: 'BIGINT' },
      { name: 'revenue', type: 'DOUBLE' },
    ]);
    expect(sorted.rows).toEqual([
      { country: 'DE', orders: 2, revenue: 109.5 },
      { country: 'UK', orders: 2, revenue: 20 },
      { country: 'CN', orders: 1, revenue: 15 },
    ]);
    expect(sorted.meta.parentIds).toEqual([byCountry.id]);
    expect(byCountry.parentIds).toEqual([withTotal.id]);
  });
});
