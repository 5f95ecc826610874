import type { DatasetMetadata, RowColumn } from '../datasets';
import { translate } from '../../i18n/messages';
import { StepParamsInvalid, StepRunFailed } from '.';
import { people, empty, peopleIds, store, rowsOf, runner, run, output, refused, names, useSqlTestbed } from './sql-testbed';

// The reshaping steps (reshape.ts) on real DuckDB over Parquet snapshots, as `npm start` runs them.

useSqlTestbed('reshape');

const textColumns: RowColumn[] = [
  { name: 'label', type: 'VARCHAR' },
  { name: 'raw', type: 'VARCHAR' },
];
let texts: DatasetMetadata;
let textIds: string[];
beforeAll(async () => {
  texts = await store('Texts', textColumns, [
    { label: 'a', raw: '42' },
    { label: 'b', raw: ' 7 ' },
    { label: 'c', raw: 'x9' },
    { label: 'd', raw: null },
    { label: 'e', raw: '2024-03-05' },
  ]);
  textIds = (await rowsOf(texts)).map((r) => r._id as string);
});

describe('cast_columns', () => {
  it('converts in place; bad values become NULL with on_error null', async () => {
    const { rows, ids, meta } = await output('cast_columns', [texts], { casts: [{ column: 'raw', type: 'integer' }], on_error: 'null' });
    expect(rows.map((r) => r.raw)).toEqual([42, 7, null, null, null]);
    expect(meta.columns.map((c) => c.type)).toEqual(['VARCHAR', 'VARCHAR', 'BIGINT']);
    expect(ids).toEqual(textIds);
  });

  it('gives every type its exact DuckDB type', async () => {
    const casts = [
      { column: 'name', type: 'text' },
      { column: 'age', type: 'number' },
      { column: 'score', type: 'decimal', scale: 2 },
      { column: 'city', type: 'json' },
    ];
    const { meta } = await output('cast_columns', [people], { casts, on_error: 'null' });
    expect(meta.columns.slice(1).map((c) => c.type)).toEqual(['VARCHAR', 'JSON', 'DOUBLE', 'DECIMAL(18,2)']);
    const dates = await output('cast_columns', [texts], {
      casts: [
        { column: 'raw', type: 'date' },
        { column: 'label', type: 'boolean' },
      ],
      on_error: 'null',
    });
    expect(dates.rows.map((r) => r.raw)).toEqual([null, null, null, null, '2024-03-05']);
    expect(dates.meta.columns.slice(1).map((c) => c.type)).toEqual(['BOOLEAN', 'DATE']);
  });

  it("fails with DuckDB's reason on a value that does not convert (fail)", async () => {
    const err = await run('cast_columns', [texts], { casts: [{ column: 'raw', type: 'integer' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepRunFailed);
    expect(String((err as StepRunFailed).values.reason)).toMatch(/^Conversion Error: .*x9/);
  });

  it('refuses an unknown type, an unknown column and `_id`, where they are', async () => {
    expect(
      await refused('cast_columns', [people], {
        casts: [
          { column: 'age', type: 'integer' },
          { column: 'age', type: 'int64' },
        ],
      }),
    ).toEqual([{ key: 'server.params.duplicateColumn', loc: ['casts', 1, 'column'], values: { column: 'age' } }]);
    expect(await refused('cast_columns', [people], { casts: [{ column: 'age', type: 'int64' }] })).toEqual([
      {
        key: 'server.steps.castType',
        loc: ['casts', 0, 'type'],
        values: { type: 'int64', types: 'text, integer, number, decimal, boolean, date, timestamp, json' },
      },
    ]);
    expect((await refused('cast_columns', [people], { casts: [{ column: 'agee', type: 'text' }] }))[0]).toMatchObject({
      key: 'server.steps.unknownColumn',
      loc: ['casts', 0, 'column'],
    });
    expect((await refused('cast_columns', [people], { casts: [{ column: '_id', type: 'text' }] }))[0]).toMatchObject({ key: 'server.steps.recordIdColumn' });
    expect((await refused('cast_columns', [people], { casts: [] }))[0]).toMatchObject({ key: 'server.steps.badList', loc: ['casts'] });
    expect(translate('en', 'server.steps.castType', { type: 'int64', types: 'text, integer' })).toBe(
      '“int64” is not a type to convert to: use one of text, integer.',
    );
  });

  it('passes an empty input through', async () => {
    expect((await output('cast_columns', [empty], { casts: [{ column: 'name', type: 'integer' }] })).rows).toEqual([]);
  });
});

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

describe('pivot', () => {
  const sales = () =>
    store(
      'Sales',
      [
        { name: 'product', type: 'VARCHAR' },
        { name: 'month', type: 'VARCHAR' },
        { name: 'amount', type: 'BIGINT' },
      ],
      [
        { product: '茶', month: 'Jan', amount: 3 },
        { product: '茶', month: 'Jan', amount: 4 },
        { product: '茶', month: 'Feb', amount: null },
        { product: 'Coffee', month: 'Feb', amount: 5 },
        { product: null, month: 'Mar', amount: 1 },
      ],
    );

  it('spreads the listed values into columns, one row per key, ids from the key', async () => {
    const input = await sales();
    const params = { index: ['product'], pivot_column: 'month', values: ['Jan', 'Feb'], value_column: 'amount', function: 'sum' };
    const a = await output('pivot', [input], params);
    expect(a.rows).toEqual([
      { product: 'Coffee', Jan: null, Feb: 5 },
      { product: '茶', Jan: 7, Feb: null },
      { product: null, Jan: null, Feb: null },
    ]);
    expect((await output('pivot', [input], params)).ids).toEqual(a.ids);
    expect(new Set(a.ids).size).toBe(3);
    expect((await output('pivot', [input], { ...params, function: 'count' })).rows.map((r) => r.Jan)).toEqual([0, 2, 0]);
    expect((await output('pivot', [input], { ...params, index: [], function: 'first' })).rows).toEqual([{ Jan: 3, Feb: null }]);
    expect((await output('pivot', [input], { ...params, function: 'avg' })).meta.columns.at(-1)!.type).toBe('DOUBLE');
    expect(a.meta.columns.at(-1)!.type).toBe('BIGINT');
  });

  it('refuses more than 100 values, sums of text and unknown columns', async () => {
    const input = await sales();
    const params = { index: ['product'], pivot_column: 'month', values: ['Jan'], value_column: 'amount' };
    expect((await refused('pivot', [input], { ...params, values: Array.from({ length: 101 }, (_, i) => `v${i}`) }))[0]).toMatchObject({
      key: 'server.steps.pivotValues',
      loc: ['values'],
    });
    expect((await refused('pivot', [input], { ...params, value_column: 'month' }))[0]).toMatchObject({
      key: 'server.steps.notNumeric',
      loc: ['value_column'],
      values: { column: 'month' },
    });
    expect((await refused('pivot', [input], { ...params, pivot_column: 'mois' }))[0]).toMatchObject({
      key: 'server.steps.unknownColumn',
      loc: ['pivot_column'],
    });
  });
});

describe('unpivot', () => {
  it('turns the columns into name/value rows, types widened, first row keeping the id', async () => {
    const { rows, ids, meta } = await output('unpivot', [people], { columns: ['age', 'score'], name_column: 'metric', value_column: 'v' });
    expect(meta.columns.map((c) => [c.name, c.type])).toEqual([
      ['_id', 'VARCHAR'],
      ['name', 'VARCHAR'],
      ['city', 'VARCHAR'],
      ['metric', 'VARCHAR'],
      ['v', 'DOUBLE'],
    ]);
    expect(rows.slice(0, 4)).toEqual([
      { name: 'Ada', city: 'London', metric: 'age', v: 36 },
      { name: 'Ada', city: 'London', metric: 'score', v: 9.5 },
      { name: 'Ärger', city: 'München', metric: 'age', v: 41 },
      { name: 'Ärger', city: 'München', metric: 'score', v: 7.25 },
    ]);
    expect(rows).toHaveLength(12);
    expect(ids[0]).toBe(peopleIds.Ada);
    expect(new Set(ids).size).toBe(12);
  });

  it('accepts a column whose type only DuckDB knows yet', () => {
    const columns = [...people.columns, { name: 'formula', type: 'UNKNOWN' }];
    expect(
      runner('unpivot')
        .outputColumns([columns], { columns: ['age', 'formula'], name_column: 'metric' })
        .at(-1),
    ).toEqual({ name: 'value', type: 'UNKNOWN' });
  });

  it('refuses mixed kinds unless as text', async () => {
    expect(await refused('unpivot', [people], { columns: ['name', 'age'] })).toEqual([
      { key: 'server.steps.unpivotTypes', loc: ['columns', 1], values: { column: 'name', type: 'VARCHAR', other: 'age', otherType: 'BIGINT' } },
    ]);
    const { rows } = await output('unpivot', [people], { columns: ['name', 'age'], as_text: true });
    expect(rows[1]).toEqual({ city: 'London', score: 9.5, name: 'age', value: '36' });
    expect((await refused('unpivot', [people], { columns: ['age'], name_column: 'metric', value_column: 'CITY' }))[0]).toMatchObject({
      key: 'server.steps.duplicateOutput',
      loc: ['value_column'],
    });
  });
});

describe('split_to_rows', () => {
  it('one row per part with its position, trimmed, empty parts dropped, NULL kept', async () => {
    const input = await store(
      'Tags',
      [
        { name: 'tags', type: 'VARCHAR' },
        { name: 'n', type: 'BIGINT' },
      ],
      [
        { tags: 'red, green,,  蓝 ', n: 1 },
        { tags: null, n: 2 },
        { tags: ' , ', n: 3 },
        { tags: 'solo', n: 4 },
      ],
    );
    const inputIds = (await rowsOf(input)).map((r) => r._id);
    const { rows, ids } = await output('split_to_rows', [input], { column: 'tags', delimiter: ',' });
    expect(rows).toEqual([
      { tags: 'red', n: 1, position: 1 },
      { tags: 'green', n: 1, position: 2 },
      { tags: '蓝', n: 1, position: 3 },
      { tags: null, n: 2, position: null },
      { tags: 'solo', n: 4, position: 1 },
    ]);
    expect([ids[0], ids[3], ids[4]]).toEqual([inputIds[0], inputIds[1], inputIds[3]]);
    expect(new Set(ids).size).toBe(5);
    const raw = await output('split_to_rows', [input], { column: 'tags', delimiter: "', '", trim: false, drop_empty: false });
    expect(raw.rows[0]).toEqual({ tags: 'red, green,,  蓝 ', n: 1, position: 1 });
  });

  it('refuses a column that is not text, naming it', async () => {
    expect(await refused('split_to_rows', [people], { column: 'age' })).toEqual([
      { key: 'server.steps.notText', loc: ['column'], values: { column: 'age', type: 'BIGINT', operation: 'split' } },
    ]);
  });
});

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

describe('parse_json', () => {
  let docs: DatasetMetadata;
  beforeAll(async () => {
    docs = await store(
      'Docs',
      [{ name: 'doc', type: 'VARCHAR' }],
      [{ doc: '{"a": {"b": "名"}, "items": [{"id": 7, "ok": true}], "n": 2.5}' }, { doc: 'not json' }, { doc: null }, { doc: '{"items": []}' }],
    );
  });
  const paths = [
    { path: '$.a.b', as: 'b' },
    { path: '$.items[0].id', as: 'id', type: 'integer' },
    { path: '$.items[0].ok', as: 'ok', type: 'boolean' },
    { path: '$.n', as: 'n', type: 'number' },
    { path: '$.items', as: 'items', type: 'json' },
  ];

  it('extracts typed values; invalid JSON and missing paths give NULL', async () => {
    const { rows } = await output('parse_json', [docs], { column: 'doc', paths });
    expect(rows.map(({ doc: _doc, ...rest }) => rest)).toEqual([
      { b: '名', id: 7, ok: true, n: 2.5, items: [{ id: 7, ok: true }] },
      { b: null, id: null, ok: null, n: null, items: null },
      { b: null, id: null, ok: null, n: null, items: null },
      { b: null, id: null, ok: null, n: null, items: [] },
    ]);
  });

  it('fails on invalid JSON when asked; refuses a bad path and a column that is not text', async () => {
    expect((await refused('parse_json', [people], { column: 'age', paths: [{ path: '$.a', as: 'a' }] }))[0]).toMatchObject({
      key: 'server.steps.notText',
      loc: ['column'],
      values: { column: 'age', type: 'BIGINT' },
    });
    const err = await run('parse_json', [docs], { column: 'doc', paths, on_invalid: 'fail' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepRunFailed);
    expect(String((err as StepRunFailed).values.reason)).toMatch(/Malformed JSON/);
    expect(await refused('parse_json', [docs], { column: 'doc', paths: [{ path: "$.a'); DROP", as: 'x' }] })).toEqual([
      { key: 'server.steps.jsonPath', loc: ['paths', 0, 'path'], values: { path: "$.a'); DROP" } },
    ]);
  });
});

describe('date_parts', () => {
  let events: DatasetMetadata;
  beforeAll(async () => {
    events = await store(
      'Events',
      [
        { name: 'at', type: 'TIMESTAMP' },
        { name: 'day', type: 'DATE' },
        { name: 'text', type: 'VARCHAR' },
      ],
      [
        { at: '2024-03-05 14:30:00', day: '2024-12-30', text: '05/03/2024' },
        { at: null, day: null, text: 'nope' },
      ],
    );
  });

  it('adds the chosen parts as typed columns', async () => {
    const { rows } = await output('date_parts', [events], {
      column: 'at',
      parts: ['year', 'quarter', 'month', 'day', 'weekday', 'week', 'hour', 'minute', 'day_of_year', 'iso_date'],
    });
    expect(rows[0]).toMatchObject({
      at_year: 2024,
      at_quarter: 1,
      at_month: 3,
      at_day: 5,
      at_weekday: 2,
      at_week: 10,
      at_hour: 14,
      at_minute: 30,
      at_day_of_year: 65,
      at_iso_date: '2024-03-05',
    });
    expect(rows[1]).toMatchObject({ at_year: null, at_iso_date: null });
    expect((await output('date_parts', [events], { column: 'day', parts: ['week', 'year'] })).rows[0]).toMatchObject({ day_week: 1, day_year: 2024 });
  });

  it('reads text with a format, else refuses it naming the column', async () => {
    expect((await output('date_parts', [events], { column: 'text', parts: ['month'], format: '%d/%m/%Y' })).rows.map((r) => r.text_month)).toEqual([3, null]);
    expect(await refused('date_parts', [events], { column: 'text', parts: ['month'] })).toEqual([
      { key: 'server.steps.notDate', loc: ['column'], values: { column: 'text', type: 'VARCHAR' } },
    ]);
    expect((await refused('date_parts', [events], { column: 'at', parts: ['year', 'century'] }))[0]).toMatchObject({
      key: 'server.steps.datePart',
      loc: ['parts', 1],
    });
  });
});

describe('reorder_columns', () => {
  it('puts the listed columns first, `_id` ahead, the rest after', async () => {
    const { meta, ids } = await output('reorder_columns', [people], { columns: ['score', 'NAME'] });
    expect(meta.columns.map((c) => c.name)).toEqual(['_id', 'score', 'name', 'city', 'age']);
    expect(ids).toEqual(Object.values(peopleIds));
    expect((await refused('reorder_columns', [people], { columns: ['score', 'score'] }))[0]).toMatchObject({
      key: 'server.params.duplicateColumn',
      loc: ['columns', 1],
    });
  });
});
