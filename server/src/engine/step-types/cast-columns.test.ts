import type { DatasetMetadata, RowColumn } from '../datasets';
import { translate } from '../../i18n/messages';
import { StepRunFailed } from '../runners';
import { people, empty, store, rowsOf, run, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('cast-columns');

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
      key: 'server.steps.unknownColumnDidYouMean',
      loc: ['casts', 0, 'column'],
      values: { column: 'agee', suggestion: 'age' },
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
