import type { SourceRunner } from '../runners/types';
import { importCsv } from './import-csv';
import { createRunnerTestbed, expectRecipeWritesAsRun, type RunnerTestbed } from '../../test/engine/runner-testbed';

/*
 * A deferred CSV import (recipe over its own copy, with what DuckDB sniffed pinned) materializes to
 * exactly the records, columns and id positions the writing import gives, across CSV shapes.
 */
const importCsvRunner = importCsv.runner as SourceRunner;

let bed: RunnerTestbed;
beforeAll(() => {
  bed = createRunnerTestbed();
});
afterAll(() => bed.close());

const shapes: [string, string | Buffer, Record<string, unknown>][] = [
  [
    'dates, timestamps, nulls, unicode',
    'id,name,born,seen,ok,score\n1,Ada,1815-12-10,2024-01-02 03:04:05,true,1.5\n2,李雷,,2024-02-03 04:05:06,false,\n3,"Ärger, ""the"" one",2000-02-29,,,-2\n',
    {},
  ],
  ['semicolons and quoted line breaks', 'a;b\n"x\ny";1\nz;2\n', { delimiter: 'auto' }],
  ['no header', '1,foo\n2,bar\n3,\n', { has_header: false }],
  ['day-first dates', 'd,v\n31/12/2024,1\n01/02/2025,2\n', {}],
  ['latin-1', Buffer.from('name,city\nJosé,Málaga\nZoë,Köln\n', 'latin1'), { encoding: 'latin1' }],
];

describe('a deferred CSV import', () => {
  it.each(shapes)('%s: materializes to what writing it gives', async (_label, content, extra) => {
    const fileId = bed.addFile('data.csv', content);
    const params = { file: fileId, delimiter: 'auto', has_header: true, encoding: 'utf-8', ...extra };
    const written = await importCsvRunner.run(bed.context(), params);
    const ctx = bed.context();
    const recipe = await importCsvRunner.defer!(ctx, params);
    await expectRecipeWritesAsRun(bed, recipe, written, ctx.output.datasetId);
  });
});
