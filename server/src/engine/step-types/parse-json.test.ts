import type { DatasetMetadata } from '../datasets';
import { StepRunFailed } from '../runners';
import { people, store, run, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('parse-json');

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
