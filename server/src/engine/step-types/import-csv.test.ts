import { type DatasetMetadata } from '../datasets';
import { translate } from '../../i18n/messages';
import { StepParamsInvalid, StepRunFailed } from '../runners';
import { bed, failure, run, runner, useSourceTestbed } from '../../test/engine/source-testbed';

// The source steps on real DuckDB, reading real files from a folder as the engine hands them over.

useSourceTestbed();

describe('import_csv', () => {
  it('reads a header, infers types and logs what it read', async () => {
    const file = bed.addFile('people.csv', 'name,age,joined,score\nAda,36,2024-03-01,9.5\n李雷,28,2023-12-31,\n');
    const { meta, rows, types, ctx } = await run('import_csv', { file });
    expect(types).toEqual({ name: 'VARCHAR', age: 'BIGINT', joined: 'DATE', score: 'DOUBLE' });
    expect(rows).toEqual([
      { name: 'Ada', age: 36, joined: '2024-03-01', score: 9.5 },
      { name: '李雷', age: 28, joined: '2023-12-31', score: null },
    ]);
    expect(meta.rowCount).toBe(2);
    expect(ctx.lines).toEqual(['Read 2 record(s) and 4 column(s) from “people.csv”']);
    expect(ctx.updates.at(-1)).toEqual({ done: 2, total: 2, phase: 'done' });
    expect(runner('import_csv').outputColumns([], { file })).toEqual([]);
  });

  it('names columns column_1… without a header', async () => {
    const file = bed.addFile('plain.csv', 'Ada,36\nBob,41\n');
    const { rows } = await run('import_csv', { file, has_header: false });
    expect(rows).toEqual([
      { column_1: 'Ada', column_2: 36 },
      { column_1: 'Bob', column_2: 41 },
    ]);
  });

  it.each([
    ['semicolon', 'a;b\n1;x,y\n', { a: 1, b: 'x,y' }],
    ['tab', 'a\tb\n1\tx;y\n', { a: 1, b: 'x;y' }],
    ['pipe', 'a|b\n1|x y\n', { a: 1, b: 'x y' }],
    ['auto', 'a;b\n1;two\n3;four\n', { a: 1, b: 'two' }],
  ])('splits on the %s delimiter', async (delimiter, text, first) => {
    const file = bed.addFile(`d-${delimiter}.csv`, text);
    const { rows } = await run('import_csv', { file, delimiter });
    expect(rows[0]).toEqual(first);
  });

  it('decodes Latin-1 and UTF-16 files', async () => {
    const latin = bed.addFile('latin.csv', Buffer.from('name;city\nJosé;München\n', 'latin1'));
    expect((await run('import_csv', { file: latin, encoding: 'latin1' })).rows).toEqual([{ name: 'José', city: 'München' }]);
    const utf16 = bed.addFile('utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name,city\n李雷,北京\n', 'utf16le')]));
    expect((await run('import_csv', { file: utf16, encoding: 'utf-16le' })).rows).toEqual([{ name: '李雷', city: '北京' }]);
  });

  it('reads at most the sample size in a preview', async () => {
    const file = bed.addFile('many.csv', `n\n${Array.from({ length: 50 }, (_, i) => i).join('\n')}\n`);
    const { rows, ctx } = await run('import_csv', { file }, { sampleSize: 5 });
    expect(rows.map((r) => r.n)).toEqual([0, 1, 2, 3, 4]);
    expect(ctx.lines[0]).toContain('(preview: at most 5)');
  });

  it('fails clearly on an empty, a ragged or a missing file', async () => {
    expect(await failure('import_csv', { file: bed.addFile('empty.csv', '') })).toBe('The step failed while running: “empty.csv” is empty');
    expect(await failure('import_csv', { file: bed.addFile('ragged.csv', 'a,b\n1,2\n3,4,5\n6,7\n') })).toBe(
      'The step failed while running: “ragged.csv” is not a well-formed CSV: its lines do not all have the same number of values (check the delimiter, quotes and text encoding)',
    );
    // Past the rows DuckDB samples, the bad line is named.
    const long = `a,b\n${Array.from({ length: 30_000 }, (_, i) => `${i},${i}`).join('\n')}\n1,2,3\n`;
    expect(await failure('import_csv', { file: bed.addFile('long.csv', long) })).toBe(
      'The step failed while running: Line 30002 of “long.csv” has 3 values where the lines before it have 2: check that line (a missing quote or an extra delimiter)',
    );
    expect(await failure('import_csv', { file: 'no-such-file' })).toBe('The step failed while running: The file no-such-file is not among your files');
  });

  it('writes nothing once the run is stopped', async () => {
    const stop = new AbortController();
    stop.abort();
    const ctx = bed.context({ signal: stop.signal });
    const err = await runner('import_csv')
      .run(ctx, { file: bed.addFile('stopped.csv', 'a\n1\n') })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepRunFailed);
    expect(translate('en', (err as StepRunFailed).messageKey, (err as StepRunFailed).values)).toBe('The step failed while running: The run was stopped');
    await expect(bed.datasets.describe({ id: ctx.output.datasetId, ownerId: bed.ownerId } as DatasetMetadata)).rejects.toThrow();
  });

  it('refuses an unknown delimiter at the param', async () => {
    const file = bed.addFile('x.csv', 'a\n1\n');
    const err = await runner('import_csv')
      .run(bed.context(), { file, delimiter: 'colon' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepParamsInvalid);
    expect((err as StepParamsInvalid).problems).toEqual([
      { key: 'server.params.enum', loc: ['delimiter'], values: { values: 'auto, comma, semicolon, tab, pipe' } },
    ]);
  });
});
