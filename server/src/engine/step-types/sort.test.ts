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

  it('sorts each column in its own direction, the others in the default one', async () => {
    // Oldest first, and within an age the higher score first: "age asc, score desc" in one step.
    const byHand = await output('sort', [people], { columns: ['age', { column: 'score', direction: 'descending' }] });
    const ageFirst = await output('sort', [people], {
      columns: [
        { column: 'age', direction: 'ascending' },
        { column: 'score', direction: 'descending' },
      ],
      direction: 'descending',
    });
    expect(names(ageFirst.rows)).toEqual(names(byHand.rows));
    const ages = byHand.rows.map((r) => r.age as number | null);
    expect(ages.filter((a) => a !== null)).toEqual([...ages.filter((a) => a !== null)].sort((a, b) => a! - b!));
    const scoreDown = await output('sort', [people], { columns: [{ column: 'score', direction: 'descending' }] });
    const scoreDefault = await output('sort', [people], { columns: ['score'], direction: 'descending' });
    expect(names(scoreDown.rows)).toEqual(names(scoreDefault.rows));
  });

  it('refuses sort keys that are not columns with a direction', async () => {
    for (const columns of [[{ column: 'age', direction: 'sideways' }], [{ column: 'age', extra: 1 }], [42], 'age']) {
      expect([columns, (await refused('sort', [people], { columns }))[0]]).toMatchObject([columns, { key: 'server.params.sortKeys', loc: ['columns'] }]);
    }
  });

  it('refuses an unknown column', async () => {
    expect((await refused('sort', [people], { columns: ['age', 'height'] }))[0]).toMatchObject({ key: 'server.steps.unknownColumn', loc: ['columns', 1] });
  });
});
