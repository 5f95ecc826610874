import { people, peopleIds, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('rename-columns');

describe('rename_columns', () => {
  it('renames the mapped columns in place, unicode names included', async () => {
    const { meta, rows, ids } = await output('rename_columns', [people], { mapping: { city: '城市', Age: 'years' } });
    expect(meta.columns.map((c) => c.name)).toEqual(['_id', 'name', '城市', 'years', 'score']);
    expect(rows[1]).toEqual({ name: 'Ärger', 城市: 'München', years: 41, score: 7.25 });
    expect(ids[1]).toBe(peopleIds['Ärger']);
  });

  it('refuses a clash, an unknown column and the record id', async () => {
    expect((await refused('rename_columns', [people], { mapping: { city: 'NAME' } }))[0]).toMatchObject({
      key: 'server.steps.duplicateOutput',
      values: { column: 'NAME' },
    });
    expect((await refused('rename_columns', [people], { mapping: { town: 'x' } }))[0]).toMatchObject({
      key: 'server.steps.unknownColumn',
      loc: ['mapping', 'town'],
    });
    expect((await refused('rename_columns', [people], { mapping: { name: '_ID' } }))[0]).toMatchObject({ key: 'server.steps.recordIdColumn' });
  });
});
