import { translate } from '../../i18n/messages';
import { StepParamsInvalid } from '../runners';
import { people, empty, store, runner, run, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('regex-extract');

describe('regex_extract', () => {
  it('puts groups into new columns, NULL without a match; or a match flag', async () => {
    const input = await store('Reports', [{ name: 'title', type: 'VARCHAR' }], [{ title: '2024-03 报告' }, { title: 'none' }, { title: null }]);
    const { rows } = await output('regex_extract', [input], {
      column: 'title',
      pattern: '(\\d{4})-(\\d{2})',
      groups: [
        { group: 1, as: 'year' },
        { group: 0, as: 'whole' },
      ],
    });
    expect(rows).toEqual([
      { title: '2024-03 报告', year: '2024', whole: '2024-03' },
      { title: 'none', year: null, whole: null },
      { title: null, year: null, whole: null },
    ]);
    const flags = await output('regex_extract', [input], { column: 'title', pattern: "报告$|'", mode: 'matches', new_column: 'is_report' });
    expect(flags.rows.map((r) => r.is_report)).toEqual([true, false, null]);
  });

  it('takes named groups by name, counting groups as RE2 does', async () => {
    const input = await store('Dates', [{ name: 'd', type: 'VARCHAR' }], [{ d: 'on 2024-03 (x)(y)' }, { d: '' }]);
    const pattern = '(?:on )?(?P<year>\\d{4})-(?P<month>\\d{2}) [\\](]x[)](\\((y)\\))';
    const { rows } = await output('regex_extract', [input], {
      column: 'd',
      pattern,
      groups: [
        { group: 'month', as: 'm' },
        { group: 'year', as: 'y' },
        { group: 4, as: 'inner' },
      ],
    });
    expect(rows).toEqual([
      { d: 'on 2024-03 (x)(y)', m: '03', y: '2024', inner: 'y' },
      { d: '', m: null, y: null, inner: null },
    ]);
    expect(await refused('regex_extract', [input], { column: 'd', pattern, groups: [{ group: 'day', as: 'x' }] })).toEqual([
      { key: 'server.steps.regexGroupName', loc: ['groups', 0, 'group'], values: { name: 'day', names: 'year, month' } },
    ]);
  });

  it('binds the pattern and other user text, never writing it into the SQL', () => {
    const evil = "x'); DROP TABLE users; --";
    const columns = people.columns;
    const queries = [
      runner('regex_extract').toSql([{ table: 't', columns }], { column: 'name', pattern: evil, mode: 'matches' }),
      runner('split_to_rows').toSql([{ table: 't', columns }], { column: 'name', delimiter: evil }),
      runner('date_parts').toSql([{ table: 't', columns }], { column: 'name', parts: ['year'], format: evil }),
      runner('parse_json').toSql([{ table: 't', columns }], { column: 'name', paths: [{ path: `$."${evil}"`, as: 'x' }] }),
      runner('fill_nulls').toSql([{ table: 't', columns }], { fills: [{ column: 'city', value: evil }] }),
      runner('pivot').toSql([{ table: 't', columns }], { pivot_column: 'city', values: ['ok'], value_column: 'age' }),
    ];
    for (const { sql, params } of queries) {
      expect(sql).not.toContain('DROP');
      expect(params.some((p) => typeof p === 'string' && (p.includes(evil) || p === 'ok'))).toBe(true);
    }
  });

  it("refuses a pattern that does not compile with RE2's reason, long patterns and bad groups", async () => {
    const err = await run('regex_extract', [people], { column: 'name', pattern: '(a', mode: 'matches' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepParamsInvalid);
    expect((err as StepParamsInvalid).problems).toEqual([{ key: 'server.steps.badPattern', loc: ['pattern'], values: { reason: 'missing ): (a' } }]);
    expect(translate('en', 'server.steps.badPattern', { reason: 'missing ): (a' })).toBe('The pattern is not a valid regular expression: missing ): (a');
    // Empty input: DuckDB compiles the bound pattern all the same.
    expect(await run('regex_extract', [empty], { column: 'name', pattern: '(a', mode: 'matches' }).catch((e: unknown) => e)).toBeInstanceOf(StepParamsInvalid);
    expect(await refused('regex_extract', [people], { column: 'name', pattern: 'a'.repeat(1001) })).toEqual([
      { key: 'server.params.maxLength', loc: ['pattern'], values: { limit: 1000 } },
    ]);
    expect(await refused('regex_extract', [people], { column: 'name', pattern: 'a', groups: [{ group: 10, as: 'x' }] })).toEqual([
      { key: 'server.steps.regexGroup', loc: ['groups', 0, 'group'] },
    ]);
    expect((await refused('regex_extract', [people], { column: 'age', pattern: 'a' }))[0]).toMatchObject({
      key: 'server.steps.notText',
      values: { column: 'age' },
    });
  });
});
