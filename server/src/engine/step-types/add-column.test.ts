import { StepRunFailed } from '../runners';
import { people, peopleIds, runner, run, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('add-column');

describe('add_column', () => {
  it('adds a formula column at the end; NULLs propagate', async () => {
    const { rows, ids } = await output('add_column', [people], { new_column: 'double age', expression: 'age * {{var.k}}' }, { k: 2 });
    expect(rows.map((r) => r['double age'])).toEqual([72, 82, 56, null, 72, 110]);
    expect(ids).toEqual(Object.values(peopleIds));
  });

  it('replaces a column of the same name where it stands', async () => {
    const { meta, rows } = await output('add_column', [people], { new_column: 'City', expression: "upper(coalesce(city, '?'))" });
    expect(meta.columns.map((c) => c.name)).toEqual(['_id', 'name', 'City', 'age', 'score']);
    expect(rows.map((r) => r.City)).toEqual(['LONDON', 'MÜNCHEN', '北京', '?', 'LONDON', 'DUBLIN']);
  });

  it('promises the types the written dataset has, wherever it names one', async () => {
    const formulas: [string, string][] = [
      ['CAST(age AS DOUBLE)', 'DOUBLE'],
      ['CAST(age AS DECIMAL(10, 2))', 'DECIMAL(10,2)'],
      ['CAST(age AS DECIMAL)', 'DECIMAL(18,3)'],
      ['age::SMALLINT', 'SMALLINT'],
      ['age::TINYINT', 'TINYINT'],
      ['CAST(age AS HUGEINT)', 'DOUBLE'],
      ['TRY_CAST(name AS INTEGER)', 'INTEGER'],
      ['CAST(score AS FLOAT)', 'FLOAT'],
      ["CAST('2024-01-02' AS DATE)", 'DATE'],
      ["CAST('2024-01-02 03:04' AS TIMESTAMP)", 'TIMESTAMP'],
      ["CAST('2024-01-02 03:04:00+00' AS TIMESTAMPTZ)", 'TIMESTAMP WITH TIME ZONE'],
      ['10000000000', 'BIGINT'],
      ['1', 'INTEGER'],
      ['age > 1 AND city IS NOT NULL', 'BOOLEAN'],
      ["name || '!'", 'VARCHAR'],
      ['upper(name)', 'VARCHAR'],
      ["CASE WHEN age > 30 THEN 'old' ELSE 'young' END", 'VARCHAR'],
      ["coalesce(city, '-')", 'VARCHAR'],
      ['-age', 'BIGINT'],
    ];
    for (const [expression, type] of formulas) {
      expect([expression, runner('add_column').outputColumns([people.columns], { new_column: 'x', expression }).at(-1)]).toEqual([
        expression,
        { name: 'x', type },
      ]);
      await output('add_column', [people], { new_column: 'x', expression });
    }
  });

  it("fails as a step failure, with DuckDB's reason, when the data does not fit the formula", async () => {
    const err = await run('add_column', [people], { new_column: 'n', expression: 'CAST(name AS INTEGER)' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepRunFailed);
    expect((err as StepRunFailed).messageKey).toBe('server.steps.runFailed');
    expect(String((err as StepRunFailed).values.reason)).toMatch(/^Conversion Error: .*Ada/);
  });

  it('refuses text in arithmetic, naming the column, and replacing `_id`', async () => {
    expect(await refused('add_column', [people], { new_column: 'x', expression: 'city * 2' })).toEqual([
      { key: 'server.steps.notNumeric', loc: ['expression'], values: { column: 'city', type: 'VARCHAR', operation: '*' } },
    ]);
    expect((await refused('add_column', [people], { new_column: '_id', expression: '1' }))[0]).toMatchObject({
      key: 'server.steps.recordIdColumn',
      loc: ['new_column'],
    });
  });
});
