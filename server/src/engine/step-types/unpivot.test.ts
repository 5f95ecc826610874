import { people, peopleIds, runner, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('unpivot');

describe('unpivot', () => {
  it('turns the columns into name/value rows, types widened, first row keeping the id', async () => {
    const { rows, ids, meta } = await output('unpivot', [people], { columns: ['age', 'score'], name_column: 'metric', value_column: 'v' });
    expect(meta.columns.map((c) => [c.name, c.type])).toEqual([
      ['_id', 'VARCHAR'],
      ['name', 'VARCHAR'],
      ['city', 'VARCHAR'],
      ['metric', 'VARCHAR'],
      ['v', 'DOUBLE'],
    ]);
    expect(rows.slice(0, 4)).toEqual([
      { name: 'Ada', city: 'London', metric: 'age', v: 36 },
      { name: 'Ada', city: 'London', metric: 'score', v: 9.5 },
      { name: 'Ärger', city: 'München', metric: 'age', v: 41 },
      { name: 'Ärger', city: 'München', metric: 'score', v: 7.25 },
    ]);
    expect(rows).toHaveLength(12);
    expect(ids[0]).toBe(peopleIds.Ada);
    expect(new Set(ids).size).toBe(12);
  });

  it('accepts a column whose type only DuckDB knows yet', () => {
    const columns = [...people.columns, { name: 'formula', type: 'UNKNOWN' }];
    expect(
      runner('unpivot')
        .outputColumns([columns], { columns: ['age', 'formula'], name_column: 'metric' })
        .at(-1),
    ).toEqual({ name: 'value', type: 'UNKNOWN' });
  });

  it('refuses mixed kinds unless as text', async () => {
    expect(await refused('unpivot', [people], { columns: ['name', 'age'] })).toEqual([
      { key: 'server.steps.unpivotTypes', loc: ['columns', 1], values: { column: 'name', type: 'VARCHAR', other: 'age', otherType: 'BIGINT' } },
    ]);
    const { rows } = await output('unpivot', [people], { columns: ['name', 'age'], as_text: true });
    expect(rows[1]).toEqual({ city: 'London', score: 9.5, name: 'age', value: '36' });
    expect((await refused('unpivot', [people], { columns: ['age'], name_column: 'metric', value_column: 'CITY' }))[0]).toMatchObject({
      key: 'server.steps.duplicateOutput',
      loc: ['value_column'],
    });
  });
});
