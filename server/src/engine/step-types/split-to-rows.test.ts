import { people, store, rowsOf, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('split-to-rows');

describe('split_to_rows', () => {
  it('one row per part with its position, trimmed, empty parts dropped, NULL kept', async () => {
    const input = await store(
      'Tags',
      [
        { name: 'tags', type: 'VARCHAR' },
        { name: 'n', type: 'BIGINT' },
      ],
      [
        { tags: 'red, green,,  蓝 ', n: 1 },
        { tags: null, n: 2 },
        { tags: ' , ', n: 3 },
        { tags: 'solo', n: 4 },
      ],
    );
    const inputIds = (await rowsOf(input)).map((r) => r._id);
    const { rows, ids } = await output('split_to_rows', [input], { column: 'tags', delimiter: ',' });
    expect(rows).toEqual([
      { tags: 'red', n: 1, position: 1 },
      { tags: 'green', n: 1, position: 2 },
      { tags: '蓝', n: 1, position: 3 },
      { tags: null, n: 2, position: null },
      { tags: 'solo', n: 4, position: 1 },
    ]);
    expect([ids[0], ids[3], ids[4]]).toEqual([inputIds[0], inputIds[1], inputIds[3]]);
    expect(new Set(ids).size).toBe(5);
    const raw = await output('split_to_rows', [input], { column: 'tags', delimiter: "', '", trim: false, drop_empty: false });
    expect(raw.rows[0]).toEqual({ tags: 'red, green,,  蓝 ', n: 1, position: 1 });
  });

  it('refuses a column that is not text, naming it', async () => {
    expect(await refused('split_to_rows', [people], { column: 'age' })).toEqual([
      { key: 'server.steps.notText', loc: ['column'], values: { column: 'age', type: 'BIGINT', operation: 'split' } },
    ]);
  });
});
