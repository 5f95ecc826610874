import { people, peopleIds, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('select-columns');

describe('select_columns', () => {
  it('keeps the listed columns in the given order, `_id` first', async () => {
    const { meta, rows, ids } = await output('select_columns', [people], { columns: ['score', 'NAME'] });
    expect(meta.columns.map((c) => c.name)).toEqual(['_id', 'score', 'name']);
    expect(rows[2]).toEqual({ score: null, name: '李雷' });
    expect(ids[0]).toBe(peopleIds.Ada);
  });

  it('drops the listed columns', async () => {
    const { meta } = await output('select_columns', [people], { columns: ['city', 'age'], mode: 'drop' });
    expect(meta.columns.map((c) => c.name)).toEqual(['_id', 'name', 'score']);
  });

  it('refuses unknown columns and dropping `_id`', async () => {
    expect((await refused('select_columns', [people], { columns: ['name', 'town'] }))[0]).toMatchObject({
      key: 'server.steps.unknownColumn',
      loc: ['columns', 1],
      values: { column: 'town' },
    });
    expect((await refused('select_columns', [people], { columns: ['_id'], mode: 'drop' }))[0]).toMatchObject({
      key: 'server.steps.recordIdColumn',
      loc: ['columns', 0],
    });
  });
});
