import fs from 'node:fs';
import { datasetKey } from '../datasets';
import type { SourceRunner } from '../runners/types';
import { importFile } from './import-file';
import { createRunnerTestbed, expectRecipeWritesAsRun, type RunnerTestbed } from '../../test/engine/runner-testbed';
import { tinyCellsWorkbook } from '../../test/engine/xlsx-bomb';

/*
 * Import file, deferred as Import CSV is (issue 12/13: every import path as fast as DuckDB): for
 * CSV, TSV, JSON, JSON Lines and Parquet the step keeps a copy of the file and a recipe over it,
 * which materializes to exactly the records and columns the writing import gives. Excel is written.
 */
const runner = importFile.runner as SourceRunner;

let bed: RunnerTestbed;
beforeAll(() => {
  bed = createRunnerTestbed();
});
afterAll(() => bed.close());

/** A Parquet file of DuckDB's making, with the types a Parquet file carries. */
async function parquetFile(): Promise<Buffer> {
  const written = await runner.run(bed.context(), { file: bed.addFile('p.csv', 'city,n,day\nOslo,1,2024-01-02\n北京,,2024-02-03\n'), format: 'auto' });
  const local = await bed.datasets.files.open(datasetKey(written.ownerId, written.id));
  try {
    return fs.readFileSync(local.path);
  } finally {
    local.release();
  }
}

const shapes: [string, () => Promise<string | Buffer>, Record<string, unknown>][] = [
  ['CSV', async () => 'id,name,born\n1,Ada,1815-12-10\n2,李雷,\n3,"Ärger, ""the"" one",2000-02-29\n', {}],
  ['TSV', async () => 'a\tb\n1\tx,y\n2\t\n', {}],
  [
    'JSON array',
    async () =>
      JSON.stringify([
        { id: 1, tag: 'x', ok: true, at: '2024-01-02' },
        { id: 2, tag: '李', ok: null, at: null },
      ]),
    {},
  ],
  ['JSON Lines', async () => '{"id":1,"score":1.5}\n{"id":2,"score":null}\n', { format: 'jsonl' }],
  ['Parquet', parquetFile, {}],
];
const nameOf: Record<string, string> = { CSV: 'd.csv', TSV: 'd.tsv', 'JSON array': 'd.json', 'JSON Lines': 'd.txt', Parquet: 'd.parquet' };

describe('a deferred file import', () => {
  it.each(shapes)('%s: keeps a copy and a recipe that materializes to what writing it gives', async (label, content, extra) => {
    const fileId = bed.addFile(nameOf[label], await content());
    const params = { file: fileId, format: 'auto', sheet: '', ...extra };
    const written = await runner.run(bed.context(), params);
    const ctx = bed.context();
    const recipe = await runner.defer!(ctx, params);
    await expectRecipeWritesAsRun(bed, recipe, written, ctx.output.datasetId);
    expect(recipe!.leaves.map((leaf) => leaf.storageKey)).toEqual([`datasets/${bed.ownerId}/${ctx.output.datasetId}.source`]);
  });

  it.each([
    ['an Excel sheet (converted off the event loop)', 'book.xlsx', () => tinyCellsWorkbook(3, 2)],
    ['JSON with lists and objects (types a snapshot might not keep as they are)', 'n.json', async () => '[{"id":1,"tags":["x"],"at":{"a":1}}]'],
  ])('writes %s instead (no recipe), leaving no copy behind', async (_label, name, content) => {
    const ctx = bed.context();
    const fileId = bed.addFile(name, await content());
    expect(await runner.defer!(ctx, { file: fileId, format: 'auto', sheet: '' })).toBeNull();
    expect(await bed.datasets.storage.head(`datasets/${bed.ownerId}/${ctx.output.datasetId}.source`)).toBeNull();
  });

  it('refuses a file whose name tells no format, leaving no copy behind', async () => {
    const ctx = bed.context();
    await expect(runner.defer!(ctx, { file: bed.addFile('notes.txt', 'a,b\n1,2\n'), format: 'auto', sheet: '' })).rejects.toThrow('server.steps.fileFormat');
    expect(await bed.datasets.storage.head(`datasets/${bed.ownerId}/${ctx.output.datasetId}.source`)).toBeNull();
  });
});
