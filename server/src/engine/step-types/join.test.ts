import type { DatasetMetadata } from '../datasets';
import { people, empty, peopleIds, store, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('join');

describe('join', () => {
  let cities: DatasetMetadata;
  beforeAll(async () => {
    cities = await store(
      'Cities',
      [
        { name: 'city', type: 'VARCHAR' },
        { name: 'country', type: 'VARCHAR' },
        { name: 'name', type: 'VARCHAR' },
      ],
      [
        { city: 'London', country: 'UK', name: 'Greater London' },
        { city: '北京', country: '中国', name: '北京市' },
        { city: 'London', country: 'UK (again)', name: 'City of London' },
        { city: 'Paris', country: 'FR', name: 'Paris' },
        { city: null, country: 'nowhere', name: null },
      ],
    );
  });

  it("inner: matching rows, clashing names suffixed, the first table's ids (repeats get new ones)", async () => {
    const { meta, rows, ids } = await output('join', [people, cities], { left_on: ['city'], right_on: ['city'] });
    expect(meta.columns.map((c) => c.name)).toEqual(['_id', 'name', 'city', 'age', 'score', 'city_right', 'country', 'name_right']);
    expect(rows.map((r) => [r.name, r.country])).toEqual([
      ['Ada', 'UK'],
      ['Ada', 'UK (again)'],
      ['李雷', '中国'],
    ]);
    expect(ids[0]).toBe(peopleIds.Ada);
    expect(ids[2]).toBe(peopleIds['李雷']);
    expect(ids[1]).not.toBe(peopleIds.Ada);
  });

  it('left, right and full keep unmatched rows; NULL keys match nothing', async () => {
    expect((await output('join', [people, cities], { left_on: ['city'], right_on: ['city'], how: 'left' })).rows).toHaveLength(7);
    const right = await output('join', [people, cities], { left_on: ['city'], right_on: ['city'], how: 'right', suffix: '_2' });
    expect(right.rows.map((r) => [r.name, r.name_2])).toEqual([
      ['Ada', 'Greater London'],
      ['Ada', 'City of London'],
      ['李雷', '北京市'],
      [null, 'Paris'],
      [null, null],
    ]);
    expect(new Set(right.ids).size).toBe(5);
    expect((await output('join', [people, cities], { left_on: ['city'], right_on: ['city'], how: 'full' })).rows).toHaveLength(9);
    expect((await output('join', [empty, cities], { left_on: ['city'], right_on: ['city'] })).rows).toEqual([]);
  });

  it('refuses keys of different types and unknown keys', async () => {
    expect(await refused('join', [people, cities], { left_on: ['age'], right_on: ['city'] })).toEqual([
      { key: 'server.steps.joinKeyTypes', loc: ['right_on', 0], values: { left: 'age', leftType: 'BIGINT', right: 'city', rightType: 'VARCHAR' } },
    ]);
    expect((await refused('join', [people, cities], { left_on: ['city'], right_on: ['town'] }))[0]).toMatchObject({
      key: 'server.steps.unknownColumn',
      loc: ['right_on', 0],
    });
    expect((await refused('join', [people, cities], { left_on: ['city'], right_on: ['city'], suffix: '' }))[0]).toMatchObject({
      key: 'server.steps.duplicateOutput',
      loc: ['suffix'],
    });
    expect((await refused('join', [people, cities], { left_on: ['city'], right_on: ['city'], suffix: '"\0' }))[0]).toMatchObject({
      key: 'server.params.string',
      loc: ['suffix'],
    });
  });
});
