import { people, peopleIds, output, refused, names, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('sort');

describe('sort', () => {
  it('orders by the columns, nulls last by default, ties in input order', async () => {
    const { rows, ids } = await output('sort', [people], { columns: ['age'] });
    expect(names(rows)).toEqual(['李雷', 'Ada', ' ada ', 'Ärger', "O'Brien", 'Bob']);
    expect(ids[0]).toBe(peopleIds['李雷']);
  });

  it('sorts descending with nulls first', async () => {
    const { rows } = await output('sort', [people], { columns: ['score'], direction: 'descending', nulls: 'first' });
    expect(names(rows)).toEqual(['李雷', 'Ada', 'Ärger', 'Bob', ' ada ', "O'Brien"]);
  });

  it('refuses an unknown column', async () => {
    expect((await refused('sort', [people], { columns: ['age', 'height'] }))[0]).toMatchObject({ key: 'server.steps.unknownColumn', loc: ['columns', 1] });
  });
});
