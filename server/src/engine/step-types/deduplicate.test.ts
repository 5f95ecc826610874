import { people, peopleIds, peopleColumns, peopleRows, store, output, names, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('deduplicate');

describe('deduplicate', () => {
  it('keeps the first (or last) of each group, ignoring case and spaces when asked, with its id', async () => {
    const first = await output('deduplicate', [people], { columns: ['name'], ignore_case: true });
    expect(names(first.rows)).toEqual(['Ada', 'Ärger', '李雷', 'Bob', "O'Brien"]);
    const last = await output('deduplicate', [people], { columns: ['name', 'age'], ignore_case: true, keep: 'last' });
    expect(names(last.rows)).toEqual(['Ärger', '李雷', 'Bob', ' ada ', "O'Brien"]);
    expect(last.ids[3]).toBe(peopleIds[' ada ']);
    expect((await output('deduplicate', [people], { columns: ['name'] })).rows).toHaveLength(6);
  });

  it('compares whole rows when no columns are given (NULLs equal)', async () => {
    const twice = await store('Twice', peopleColumns, [...peopleRows, peopleRows[3], peopleRows[0]]);
    expect(names((await output('deduplicate', [twice], {})).rows)).toEqual(names(peopleRows));
  });
});
