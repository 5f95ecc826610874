import { people, peopleIds, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('reorder-columns');

describe('reorder_columns', () => {
  it('puts the listed columns first, `_id` ahead, the rest after', async () => {
    const { meta, ids } = await output('reorder_columns', [people], { columns: ['score', 'NAME'] });
    expect(meta.columns.map((c) => c.name)).toEqual(['_id', 'score', 'name', 'city', 'age']);
    expect(ids).toEqual(Object.values(peopleIds));
    expect((await refused('reorder_columns', [people], { columns: ['score', 'score'] }))[0]).toMatchObject({
      key: 'server.params.duplicateColumn',
      loc: ['columns', 1],
    });
  });
});
