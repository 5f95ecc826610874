import { people, empty, peopleIds, output, refused, names, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('sample');

describe('sample', () => {
  it('picks the same rows for the same seed, in input order, ids kept', async () => {
    const a = await output('sample', [people], { method: 'random', rows: 3, seed: 7 });
    const b = await output('sample', [people], { method: 'random', rows: 3, seed: 7 });
    expect(a.rows).toHaveLength(3);
    expect(b.ids).toEqual(a.ids);
    const order = Object.values(peopleIds);
    expect([...a.ids].sort((x, y) => order.indexOf(x) - order.indexOf(y))).toEqual(a.ids);
    const others = await Promise.all([1, 2, 3, 4, 5].map(async (seed) => (await output('sample', [people], { method: 'random', rows: 3, seed })).ids.join()));
    expect(new Set([a.ids.join(), ...others]).size).toBeGreaterThan(1);
  });

  it('takes a percentage, the first rows, or every n-th row', async () => {
    expect((await output('sample', [people], { method: 'random', size: 'percent', percent: 50 })).rows).toHaveLength(3);
    expect(names((await output('sample', [people], { method: 'first', size: 'percent', percent: 34 })).rows)).toEqual(['Ada', 'Ärger']);
    expect(names((await output('sample', [people], { method: 'every_nth', every: 4 })).rows)).toEqual(['Ada', ' ada ']);
    expect((await output('sample', [empty], { method: 'random', rows: 3 })).rows).toEqual([]);
  });

  it('refuses a percentage over 100', async () => {
    expect(await refused('sample', [people], { percent: 101 })).toEqual([{ key: 'server.params.maximum', loc: ['percent'], values: { limit: 100 } }]);
  });
});
