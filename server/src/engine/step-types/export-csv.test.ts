import { ValidationFailed } from '../../lib/errors';
import { datasets, empty, failure, formulas, people, run, useSinkTestbed } from '../../test/engine/sink-testbed';
import { formulaCsvLines, rawFormulaCsvLines } from '../../test/formula-cells';

// The sinks on real DuckDB over Parquet snapshots in a local storage folder, and the webhook
// against a real HTTP server on 127.0.0.1.

useSinkTestbed();

describe('export_csv', () => {
  it('writes the records with header, quotes where needed, nulls as empty fields, unicode as is, and no `_id`', async () => {
    const out = await run('export_csv', {});
    expect(out.text()).toBe(
      [
        'name,note,amount,count,day,at',
        'Ada,plain,9.5,3,2024-01-15,2024-01-15 12:34:56',
        '李雷,"says ""hi"", then; leaves",-1.25,,,',
        'Ärger,"two\nlines",,9007199254740991,1999-12-31,2000-01-01 00:00:00',
        `O'Brien,"",0.0,0,2024-02-29,2024-02-29 23:59:59`,
        '',
      ].join('\n'),
    );
    expect(out.result.summary).toEqual({ records: 4, file: 'export.csv', bytes: out.saved[0].file.size });
    expect(out.progress.at(-1)).toEqual({ done: 4, total: 4 });
  });

  it('uses the chosen delimiter, leaves the header out, and adds `_id` when asked', async () => {
    const out = await run('export_csv', { delimiter: 'semicolon', include_header: false, include_record_id: true });
    const lines = out.text().split('\n');
    const ids = (await datasets.records(people, { page: 1, pageSize: 10 })).items.map((r) => r._id);
    expect(lines[0]).toBe(`${ids[0]};Ada;plain;9.5;3;2024-01-15;2024-01-15 12:34:56`);
    expect(lines[1]).toBe(`${ids[1]};李雷;"says ""hi"", then; leaves";-1.25;;;`);
    const tab = await run('export_csv', { delimiter: 'tab' });
    expect(tab.text().split('\n')[0]).toBe('name\tnote\tamount\tcount\tday\tat');
  });

  it('writes only the header for an empty table', async () => {
    expect((await run('export_csv', {}, empty)).text()).toBe('name,note,amount,count,day,at\n');
  });
});

describe('export_csv and spreadsheet formulas', () => {
  it("puts ' before text cells and header names that a spreadsheet would run, and leaves numbers as they are", async () => {
    const out = await run('export_csv', {}, formulas);
    expect(out.text()).toBe(formulaCsvLines.join('\n'));
    // With a tab delimiter the tab is quoted too, and the cell still starts with '.
    expect((await run('export_csv', { delimiter: 'tab', include_header: false }, formulas)).text().split('\n')[4]).toBe(`"'\tx"\t0.0\t-4`);
  });

  it('writes every value and name exactly as it is when asked to keep formulas', async () => {
    const out = await run('export_csv', { raw_formulas: true }, formulas);
    expect(out.text()).toBe(rawFormulaCsvLines.join('\n'));
  });

  it('refuses a raw_formulas that is not a boolean', async () => {
    const err = await failure(run('export_csv', { raw_formulas: 'yes' }, formulas));
    expect(err).toBeInstanceOf(ValidationFailed);
    expect((err as ValidationFailed).problems.map((p) => p.loc)).toEqual([['raw_formulas']]);
  });
});
