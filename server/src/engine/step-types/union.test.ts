import type { DatasetMetadata } from '../datasets';
import { people, empty, peopleIds, store, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('union');

describe('union', () => {
  let more: DatasetMetadata;
  beforeAll(async () => {
    more = await store(
      'More',
      [
        { name: 'Name', type: 'VARCHAR' },
        { name: 'age', type: 'DOUBLE' },
        { name: 'email', type: 'VARCHAR' },
      ],
      [{ Name: 'Zoë', age: 30.5, email: 'z@example.com' }],
    );
  });

  it('stacks by name: missing columns NULL, types widened, ids kept, a source column', async () => {
    const { meta, rows, ids } = await output('union', [people, more], { add_source_column: true });
    expect(meta.columns).toEqual([
      { name: '_id', type: 'VARCHAR' },
      { name: 'name', type: 'VARCHAR' },
      { name: 'city', type: 'VARCHAR' },
      { name: 'age', type: 'DOUBLE' },
      { name: 'score', type: 'DOUBLE' },
      { name: 'email', type: 'VARCHAR' },
      { name: '_source', type: 'BIGINT' },
    ]);
    expect(rows.at(-1)).toEqual({ name: 'Zoë', city: null, age: 30.5, score: null, email: 'z@example.com', _source: 2 });
    expect(rows[0]).toEqual({ name: 'Ada', city: 'London', age: 36, score: 9.5, email: null, _source: 1 });
    expect(ids.slice(0, 6)).toEqual(Object.values(peopleIds));
  });

  it("stacks by position under the first input's names; text with numbers becomes text", async () => {
    const { meta, rows } = await output('union', [people, more], { match_by: 'position' });
    expect(meta.columns.map((c) => [c.name, c.type])).toEqual([
      ['_id', 'VARCHAR'],
      ['name', 'VARCHAR'],
      ['city', 'VARCHAR'],
      ['age', 'VARCHAR'],
      ['score', 'DOUBLE'],
    ]);
    expect(rows[0]).toEqual({ name: 'Ada', city: 'London', age: '36', score: 9.5 });
    expect(rows[6]).toEqual({ name: 'Zoë', city: '30.5', age: 'z@example.com', score: null });
  });

  it('appends a dataset to itself and to an empty one, ids staying unique', async () => {
    const { rows, ids } = await output('union', [people, empty, people], {});
    expect(rows).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it('refuses a later input wider than the first by position', async () => {
    expect(await refused('union', [more, people], { match_by: 'position' })).toEqual([
      { key: 'server.steps.unionWidth', loc: ['match_by'], values: { input: 2, count: 4, expected: 3 } },
    ]);
  });
});
