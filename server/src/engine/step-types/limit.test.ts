import { people, empty, output, refused, names, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('limit');

describe('limit', () => {
  it('takes count rows after offset, in order', async () => {
    expect(names((await output('limit', [people], { count: 2, offset: 1 })).rows)).toEqual(['Ärger', '李雷']);
    expect(names((await output('limit', [people], { count: '{{var.n}}' }, { n: 1 })).rows)).toEqual(['Ada']);
    expect((await output('limit', [empty], { count: 5 })).rows).toEqual([]);
  });

  it('refuses a count that is not a whole number', async () => {
    expect((await refused('limit', [people], { count: 1.5 }))[0]).toMatchObject({ key: 'server.params.integer', loc: ['count'] });
  });
});
