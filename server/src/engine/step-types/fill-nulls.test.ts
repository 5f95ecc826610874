import { translate } from '../../i18n/messages';
import { people, peopleIds, runner, run, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('fill-nulls');

describe('fill_nulls', () => {
  it('fills with typed values, forward and backward, in input order, ids kept', async () => {
    const { rows, ids } = await output('fill_nulls', [people], {
      fills: [
        { column: 'city', value: "l'inconnu 未知" },
        { column: 'age', method: 'forward' },
        { column: 'score', method: 'backward' },
      ],
    });
    expect(rows.map((r) => [r.city, r.age, r.score])).toEqual([
      ['London', 36, 9.5],
      ['München', 41, 7.25],
      ['北京', 28, 3],
      ["l'inconnu 未知", 28, 3],
      ['london', 36, 1],
      ['Dublin', 55, -1],
    ]);
    expect(ids).toEqual(Object.values(peopleIds));
  });

  it("binds the fill value, converting it to the column's type", async () => {
    const sql = runner('fill_nulls').toSql([{ table: 't', columns: people.columns }], { fills: [{ column: 'age', value: 7 }] });
    expect(sql.params).toEqual([7]);
    expect(sql.sql).toContain('CAST($1 AS BIGINT)');
    expect((await output('fill_nulls', [people], { fills: [{ column: 'age', value: 7 }] })).rows.map((r) => r.age)).toEqual([36, 41, 28, 7, 36, 55]);
  });

  it('leaves leading NULLs with forward fill', async () => {
    const sorted = await run('sort', [people], { columns: ['age'], direction: 'ascending', nulls: 'first' });
    expect(
      (
        await output('fill_nulls', [sorted], {
          fills: [
            { column: 'score', method: 'forward' },
            { column: 'city', method: 'forward' },
          ],
        })
      ).rows.map((r) => r.city),
    ).toEqual([null, '北京', 'London', 'london', 'München', 'Dublin']);
  });

  it('refuses a value of the wrong kind, naming the column, and an unknown method', async () => {
    expect(await refused('fill_nulls', [people], { fills: [{ column: 'age', value: 'zero' }] })).toEqual([
      { key: 'server.steps.fillValueType', loc: ['fills', 0, 'value'], values: { column: 'age', type: 'BIGINT' } },
    ]);
    expect((await refused('fill_nulls', [people], { fills: [{ column: 'age', method: 'sideways' }] }))[0]).toMatchObject({ loc: ['fills', 0, 'method'] });
    expect(translate('zh-CN', 'server.steps.fillValueType', { column: 'age', type: 'BIGINT' })).toContain('列“age”（BIGINT）');
  });
});
