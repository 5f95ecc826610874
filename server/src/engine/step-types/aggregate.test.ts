import { people, empty, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('aggregate');

describe('aggregate', () => {
  it('summarises each group, with ids from the group keys that repeat across runs', async () => {
    const params = {
      group_by: ['age'],
      aggregations: [
        { column: '*', function: 'count', as: 'n' },
        { column: 'score', function: 'sum', as: 'total' },
        { column: 'score', function: 'avg', as: 'mean' },
        { column: 'name', function: 'first' },
        { column: 'name', function: 'last' },
        { column: 'city', function: 'count_distinct', as: 'cities' },
        { column: 'score', function: 'max' },
      ],
    };
    const a = await output('aggregate', [people], params);
    expect(a.meta.columns).toEqual([
      { name: '_id', type: 'VARCHAR' },
      { name: 'age', type: 'BIGINT' },
      { name: 'n', type: 'BIGINT' },
      { name: 'total', type: 'DOUBLE' },
      { name: 'mean', type: 'DOUBLE' },
      { name: 'first_name', type: 'VARCHAR' },
      { name: 'last_name', type: 'VARCHAR' },
      { name: 'cities', type: 'BIGINT' },
      { name: 'max_score', type: 'DOUBLE' },
    ]);
    expect(a.rows).toEqual([
      { age: 28, n: 1, total: null, mean: null, first_name: '李雷', last_name: '李雷', cities: 1, max_score: null },
      { age: 36, n: 2, total: 10.5, mean: 5.25, first_name: 'Ada', last_name: ' ada ', cities: 2, max_score: 9.5 },
      { age: 41, n: 1, total: 7.25, mean: 7.25, first_name: 'Ärger', last_name: 'Ärger', cities: 1, max_score: 7.25 },
      { age: 55, n: 1, total: -1, mean: -1, first_name: "O'Brien", last_name: "O'Brien", cities: 1, max_score: -1 },
      { age: null, n: 1, total: 3, mean: 3, first_name: 'Bob', last_name: 'Bob', cities: 0, max_score: 3 },
    ]);
    expect(new Set(a.ids).size).toBe(5);
    for (const id of a.ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect((await output('aggregate', [people], params)).ids).toEqual(a.ids);
  });

  it('gives one row of totals without groups, also for an empty input', async () => {
    expect((await output('aggregate', [people], { aggregations: [{ column: 'age', function: 'sum', as: 'years' }] })).rows).toEqual([{ years: 196 }]);
    expect((await output('aggregate', [empty], {})).rows).toEqual([{ count: 0 }]);
  });

  it('refuses sums of text, naming the column, and unknown functions', async () => {
    expect(await refused('aggregate', [people], { aggregations: [{ column: 'city', function: 'sum', as: 's' }] })).toEqual([
      { key: 'server.steps.notNumeric', loc: ['aggregations', 0, 'column'], values: { column: 'city', type: 'VARCHAR', operation: 'sum' } },
    ]);
    expect((await refused('aggregate', [people], { aggregations: [{ column: 'age', function: 'max', as: 'a"\0' }] }))[0]).toMatchObject({
      key: 'server.steps.columnName',
      loc: ['aggregations', 0, 'as'],
    });
    expect((await refused('aggregate', [people], { aggregations: [{ column: 'age', function: 'median' }] }))[0]).toMatchObject({
      key: 'server.steps.aggregateFunction',
      loc: ['aggregations', 0, 'function'],
    });
    expect((await refused('aggregate', [people], { group_by: ['n'], aggregations: [{ column: '*', function: 'count', as: 'N' }] }))[0]).toMatchObject({
      key: 'server.steps.unknownColumn',
      loc: ['group_by', 0],
    });
    expect((await refused('aggregate', [people], { group_by: ['age'], aggregations: [{ column: '*', function: 'count', as: 'AGE' }] }))[0]).toMatchObject({
      key: 'server.steps.duplicateOutput',
    });
  });
});
