import type { DatasetMetadata } from '../datasets';
import { translate } from '../../i18n/messages';
import { StepRunFailed } from '.';
import { people, empty, peopleIds, peopleColumns, peopleRows, store, runner, run, output, refused, names, useSqlTestbed } from './sql-testbed';

// Every SQL step on real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('runners');

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

  it('refuses a column the input lacks, naming it and the columns there are', async () => {
    expect(await refused('filter', [people], { condition: 'agee > 30' })).toEqual([
      { key: 'server.steps.unknownColumn', loc: ['condition'], values: { column: 'agee', columns: 'name, city, age, score' } },
    ]);
  });

  it("says so in the reader's language", () => {
    const values = { column: 'agee', columns: 'name, city, age, score' };
    expect(translate('en', 'server.steps.unknownColumn', values)).toBe('Column “agee” does not exist; the input has name, city, age, score.');
    expect(translate('zh-CN', 'server.steps.unknownColumn', values)).toBe('列“agee”不存在；输入中的列有：name, city, age, score。');
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

describe('select_columns', () => {
  it('keeps the listed columns in the given order, `_id` first', async () => {
    const { meta, rows, ids } = await output('select_columns', [people], { columns: ['score', 'NAME'] });
    expect(meta.columns.map((c) => c.name)).toEqual(['_id', 'score', 'name']);
    expect(rows[2]).toEqual({ score: null, name: '李雷' });
    expect(ids[0]).toBe(peopleIds.Ada);
  });

  it('drops the listed columns', async () => {
    const { meta } = await output('select_columns', [people], { columns: ['city', 'age'], mode: 'drop' });
    expect(meta.columns.map((c) => c.name)).toEqual(['_id', 'name', 'score']);
  });

  it('refuses unknown columns and dropping `_id`', async () => {
    expect((await refused('select_columns', [people], { columns: ['name', 'town'] }))[0]).toMatchObject({
      key: 'server.steps.unknownColumn',
      loc: ['columns', 1],
      values: { column: 'town' },
    });
    expect((await refused('select_columns', [people], { columns: ['_id'], mode: 'drop' }))[0]).toMatchObject({
      key: 'server.steps.recordIdColumn',
      loc: ['columns', 0],
    });
  });
});

describe('rename_columns', () => {
  it('renames the mapped columns in place, unicode names included', async () => {
    const { meta, rows, ids } = await output('rename_columns', [people], { mapping: { city: '城市', Age: 'years' } });
    expect(meta.columns.map((c) => c.name)).toEqual(['_id', 'name', '城市', 'years', 'score']);
    expect(rows[1]).toEqual({ name: 'Ärger', 城市: 'München', years: 41, score: 7.25 });
    expect(ids[1]).toBe(peopleIds['Ärger']);
  });

  it('refuses a clash, an unknown column and the record id', async () => {
    expect((await refused('rename_columns', [people], { mapping: { city: 'NAME' } }))[0]).toMatchObject({
      key: 'server.steps.duplicateOutput',
      values: { column: 'NAME' },
    });
    expect((await refused('rename_columns', [people], { mapping: { town: 'x' } }))[0]).toMatchObject({
      key: 'server.steps.unknownColumn',
      loc: ['mapping', 'town'],
    });
    expect((await refused('rename_columns', [people], { mapping: { name: '_ID' } }))[0]).toMatchObject({ key: 'server.steps.recordIdColumn' });
  });
});

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

describe('sort', () => {
  it('orders by the columns, nulls last by default, ties in input order', async () => {
    const { rows, ids } = await output('sort', [people], { columns: ['age'] });
    expect(names(rows)).toEqual(['李雷', 'Ada', ' ada ', 'Ärger', "O'Brien", 'Bob']);
    expect(ids[0]).toBe(peopleIds['李雷']);
  });

  it('sorts descending with nulls first', async () => {
    const { rows } = await output('sort', [people], { columns: ['score'], direction: 'descending', nulls: 'first' });
    expect(names(rows)).toEqual(['李雷', 'Ada', 'Ärger', 'Bob', ' ada ', "O'Brien"]);
  });

  it('refuses an unknown column', async () => {
    expect((await refused('sort', [people], { columns: ['age', 'height'] }))[0]).toMatchObject({ key: 'server.steps.unknownColumn', loc: ['columns', 1] });
  });
});

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

describe('aggregate', () => {
  it('summarises each group, with ids from the group keys that repeat across runs', async () => {
    const params = {
      group_by: ['age'],
      aggregations: [
        { column: '*', function: 'count', as: 'n' },
        { column: 'score', function: 'sum', as: 'total' },
        { column: 'score', function: 'avg', as: 'mean' },
        { column: 'name', function: 'first' },
        { column: 'name', function: 'last' },
        { column: 'city', function: 'count_distinct', as: 'cities' },
        { column: 'score', function: 'max' },
      ],
    };
    const a = await output('aggregate', [people], params);
    expect(a.meta.columns).toEqual([
      { name: '_id', type: 'VARCHAR' },
      { name: 'age', type: 'BIGINT' },
      { name: 'n', type: 'BIGINT' },
      { name: 'total', type: 'DOUBLE' },
      { name: 'mean', type: 'DOUBLE' },
      { name: 'first_name', type: 'VARCHAR' },
      { name: 'last_name', type: 'VARCHAR' },
      { name: 'cities', type: 'BIGINT' },
      { name: 'max_score', type: 'DOUBLE' },
    ]);
    expect(a.rows).toEqual([
      { age: 28, n: 1, total: null, mean: null, first_name: '李雷', last_name: '李雷', cities: 1, max_score: null },
      { age: 36, n: 2, total: 10.5, mean: 5.25, first_name: 'Ada', last_name: ' ada ', cities: 2, max_score: 9.5 },
      { age: 41, n: 1, total: 7.25, mean: 7.25, first_name: 'Ärger', last_name: 'Ärger', cities: 1, max_score: 7.25 },
      { age: 55, n: 1, total: -1, mean: -1, first_name: "O'Brien", last_name: "O'Brien", cities: 1, max_score: -1 },
      { age: null, n: 1, total: 3, mean: 3, first_name: 'Bob', last_name: 'Bob', cities: 0, max_score: 3 },
    ]);
    expect(new Set(a.ids).size).toBe(5);
    for (const id of a.ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect((await output('aggregate', [people], params)).ids).toEqual(a.ids);
  });

  it('gives one row of totals without groups, also for an empty input', async () => {
    expect((await output('aggregate', [people], { aggregations: [{ column: 'age', function: 'sum', as: 'years' }] })).rows).toEqual([{ years: 196 }]);
    expect((await output('aggregate', [empty], {})).rows).toEqual([{ count: 0 }]);
  });

  it('refuses sums of text, naming the column, and unknown functions', async () => {
    expect(await refused('aggregate', [people], { aggregations: [{ column: 'city', function: 'sum', as: 's' }] })).toEqual([
      { key: 'server.steps.notNumeric', loc: ['aggregations', 0, 'column'], values: { column: 'city', type: 'VARCHAR', operation: 'sum' } },
    ]);
    expect((await refused('aggregate', [people], { aggregations: [{ column: 'age', function: 'max', as: 'a"\0' }] }))[0]).toMatchObject({
      key: 'server.steps.columnName',
      loc: ['aggregations', 0, 'as'],
    });
    expect((await refused('aggregate', [people], { aggregations: [{ column: 'age', function: 'median' }] }))[0]).toMatchObject({
      key: 'server.steps.aggregateFunction',
      loc: ['aggregations', 0, 'function'],
    });
    expect((await refused('aggregate', [people], { group_by: ['n'], aggregations: [{ column: '*', function: 'count', as: 'N' }] }))[0]).toMatchObject({
      key: 'server.steps.unknownColumn',
      loc: ['group_by', 0],
    });
    expect((await refused('aggregate', [people], { group_by: ['age'], aggregations: [{ column: '*', function: 'count', as: 'AGE' }] }))[0]).toMatchObject({
      key: 'server.steps.duplicateOutput',
    });
  });
});

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

describe('a chained pipeline', () => {
  it('import → filter → add_column → aggregate → sort gives exactly the expected rows', async () => {
    const orders = await store(
      'Orders',
      [
        { name: 'customer', type: 'VARCHAR' },
        { name: 'country', type: 'VARCHAR' },
        { name: 'qty', type: 'BIGINT' },
        { name: 'price', type: 'DOUBLE' },
        { name: 'status', type: 'VARCHAR' },
      ],
      [
        { customer: 'Ada', country: 'UK', qty: 2, price: 10, status: 'paid' },
        { customer: 'Jörg', country: 'DE', qty: 1, price: 99.5, status: 'paid' },
        { customer: '王芳', country: 'CN', qty: 3, price: 5, status: 'paid' },
        { customer: 'Ada', country: 'UK', qty: 1, price: 20, status: 'refunded' },
        { customer: 'Ben', country: 'UK', qty: null, price: 7, status: 'paid' },
        { customer: 'Lena', country: 'DE', qty: 4, price: 2.5, status: 'paid' },
        { customer: 'X', country: null, qty: 1, price: 1, status: null },
      ],
    );
    const paid = await run('filter', [orders], { condition: 'status = {{var.status}}' }, { status: 'paid' });
    const withTotal = await run('add_column', [paid], { new_column: 'total', expression: 'coalesce(qty, 0) * price' });
    const byCountry = await run('aggregate', [withTotal], {
      group_by: ['country'],
      aggregations: [
        { column: '*', function: 'count', as: 'orders' },
        { column: 'total', function: 'sum', as: 'revenue' },
      ],
    });
    const sorted = await output('sort', [byCountry], { columns: ['revenue'], direction: 'descending' });
    expect(sorted.meta.columns).toEqual([
      { name: '_id', type: 'VARCHAR' },
      { name: 'country', type: 'VARCHAR' },
      { name: 'orders', type: 'BIGINT' },
      { name: 'revenue', type: 'DOUBLE' },
    ]);
    expect(sorted.rows).toEqual([
      { country: 'DE', orders: 2, revenue: 109.5 },
      { country: 'UK', orders: 2, revenue: 20 },
      { country: 'CN', orders: 1, revenue: 15 },
    ]);
    expect(sorted.meta.parentIds).toEqual([byCountry.id]);
    expect(byCountry.parentIds).toEqual([withTotal.id]);
  });
});
