import { translate } from '../../i18n/messages';
import { people, empty, peopleIds, output, refused, names, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('filter');

describe('filter', () => {
  it('keeps the matching rows with their ids; a NULL condition does not match', async () => {
    const { rows, ids } = await output('filter', [people], { condition: 'age > 30' });
    expect(names(rows)).toEqual(['Ada', 'Ärger', ' ada ', "O'Brien"]);
    expect(ids).toEqual(['Ada', 'Ärger', ' ada ', "O'Brien"].map((n) => peopleIds[n]));
  });

  it('removes the matching rows, keeping those where the condition is NULL', async () => {
    const { rows } = await output('filter', [people], { condition: 'age > 30', mode: 'remove' });
    expect(names(rows)).toEqual(['李雷', 'Bob']);
  });

  it('matches unicode text, binds variables and text as values', async () => {
    expect(names((await output('filter', [people], { condition: "city = '北京' OR name = {{var.who}}" }, { who: "O'Brien" })).rows)).toEqual([
      '李雷',
      "O'Brien",
    ]);
    expect(names((await output('filter', [people], { condition: "lower(trim(name)) = 'ada' AND \"CITY\" ILIKE 'lon%'" })).rows)).toEqual(['Ada', ' ada ']);
  });

  it('passes an empty input through as an empty dataset with the same columns', async () => {
    const { meta, rows } = await output('filter', [empty], { condition: 'age > 30' });
    expect(rows).toEqual([]);
    expect(meta.columns).toEqual(empty.columns);
  });

  it('refuses a column the input lacks, naming it, the column it likely meant, and the columns there are', async () => {
    expect(await refused('filter', [people], { condition: 'agee > 30' })).toEqual([
      { key: 'server.steps.unknownColumnDidYouMean', loc: ['condition'], values: { column: 'agee', suggestion: 'age', columns: 'name, city, age, score' } },
    ]);
    expect(await refused('filter', [people], { condition: 'height > 30' })).toEqual([
      { key: 'server.steps.unknownColumn', loc: ['condition'], values: { column: 'height', columns: 'name, city, age, score' } },
    ]);
  });

  it("says so in the reader's language", () => {
    const values = { column: 'agee', columns: 'name, city, age, score' };
    expect(translate('en', 'server.steps.unknownColumn', values)).toBe('Column “agee” does not exist; the input has name, city, age, score.');
    expect(translate('zh-CN', 'server.steps.unknownColumn', values)).toBe('列“agee”不存在；输入中的列有：name, city, age, score。');
    const meant = { ...values, suggestion: 'age' };
    expect(translate('en', 'server.steps.unknownColumnDidYouMean', meant)).toBe(
      'Column “agee” does not exist: did you mean “age”? The input has name, city, age, score.',
    );
    expect(translate('zh-CN', 'server.steps.unknownColumnDidYouMean', meant)).toBe('列“agee”不存在：是不是“age”？输入中的列有：name, city, age, score。');
  });

  it('refuses a column of the wrong type, naming it', async () => {
    expect(await refused('filter', [people], { condition: 'name > 5' })).toEqual([
      { key: 'server.steps.notComparable', loc: ['condition'], values: { column: 'name', type: 'VARCHAR', operation: '>', other: 'INTEGER' } },
    ]);
    expect((await refused('filter', [people], { condition: 'city AND age > 1' }))[0]).toMatchObject({
      key: 'server.steps.notBoolean',
      values: { column: 'city' },
    });
    expect((await refused('filter', [people], { condition: 'score * 2' }))[0]).toMatchObject({ key: 'server.steps.conditionNotBoolean' });
  });

  it('refuses injection attempts before any SQL runs', async () => {
    const keys = async (condition: string) => (await refused('filter', [people], { condition })).map((p) => [p.key, p.loc]);
    expect(await keys('age > 1; DROP TABLE users')).toEqual([['server.expressions.semicolon', ['condition']]]);
    expect(await keys('age IN (SELECT 1)')).toEqual([['server.expressions.statement', ['condition']]]);
    expect(await keys("read_csv('/etc/passwd') IS NULL")).toEqual([['server.expressions.unknownFunction', ['condition']]]);
    expect(await keys('age > 1 -- comment')).toEqual([['server.expressions.comment', ['condition']]]);
    expect(await keys('{{var.missing}} = 1')).toEqual([['server.expressions.unknownVariable', ['condition']]]);
  });

  it('treats quotes inside values as text, never as SQL', async () => {
    const { rows } = await output('filter', [people], { condition: "name = 'x'' OR ''1''=''1' OR name = {{var.v}}" }, { v: "' OR 1=1 --" });
    expect(rows).toEqual([]);
  });
});
