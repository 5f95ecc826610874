import type { ParamValues } from '../params';
import { paramProblems, run, runner, useSourceTestbed } from '../../test/engine/source-testbed';

// The source steps on real DuckDB, reading real files from a folder as the engine hands them over.

useSourceTestbed();

describe('table_input', () => {
  const columns = [
    { name: 'city', type: 'text' },
    { name: 'rank', type: 'integer' },
    { name: 'score', type: 'number' },
    { name: 'capital', type: 'boolean' },
    { name: 'founded', type: 'date' },
  ];

  it('writes typed rows given as lists or objects, with exact output columns', async () => {
    const params = {
      columns,
      rows: [['Paris', 1, 9.5, true, '0508-01-01'], { city: '北京', rank: '2', score: '7.25', capital: 'TRUE' }, ['Lyon', '', null]],
    };
    const { meta, rows } = await run('table_input', params);
    expect(rows).toEqual([
      { city: 'Paris', rank: 1, score: 9.5, capital: true, founded: '0508-01-01' },
      { city: '北京', rank: 2, score: 7.25, capital: true, founded: null },
      { city: 'Lyon', rank: null, score: null, capital: null, founded: null },
    ]);
    expect(meta.columns).toEqual(runner('table_input').outputColumns([], params));
  });

  it('refuses bad columns, cells and sizes at the param', () => {
    const check = (params: ParamValues) => paramProblems(() => runner('table_input').outputColumns([], params));
    expect(check({ columns: [], rows: [] })).toEqual([
      { loc: ['columns'], msg: 'Give a JSON list of columns, each with a “name” and a “type” (text, integer, number, boolean or date).' },
    ]);
    expect(check({ columns: [{ name: 'a', type: 'money' }], rows: [] })).toEqual([
      { loc: ['columns', 0, 'type'], msg: 'Must be one of: text, integer, number, boolean, date' },
    ]);
    expect(
      check({
        columns: [
          { name: 'A', type: 'text' },
          { name: 'a', type: 'text' },
        ],
        rows: [],
      }),
    ).toEqual([{ loc: ['columns', 1, 'name'], msg: 'Two columns of the result would be named “a”.' }]);
    expect(check({ columns, rows: [['x', 'two']] })).toEqual([{ loc: ['rows', 0, 1], msg: 'Row 1, column “rank”: “two” is not a valid integer value.' }]);
    expect(check({ columns, rows: [{ city: 'x', founded: '2024-02-30' }] })).toEqual([
      { loc: ['rows', 0, 'founded'], msg: 'Row 1, column “founded”: “2024-02-30” is not a valid date value.' },
    ]);
    expect(check({ columns, rows: [{ town: 'x' }] })).toEqual([
      { loc: ['rows', 0, 'town'], msg: 'Row 1 names column “town”, which is not among the table’s columns.' },
    ]);
    expect(check({ columns, rows: [[1, 2, 3, 4, 5, 6]] })).toEqual([{ loc: ['rows', 0], msg: 'Row 1 has 6 values but the table has 5 columns.' }]);
    expect(check({ columns, rows: [['x'.repeat(10_001)]] })).toEqual([
      { loc: ['rows', 0, 0], msg: 'Row 1, column “city”: a cell holds at most 10000 characters.' },
    ]);
    expect(check({ columns, rows: Array.from({ length: 1001 }, () => []) })).toEqual([
      { loc: ['rows'], msg: 'A typed-in table holds at most 1000 rows and 100 columns.' },
    ]);
  });
});
