import { type DatasetMetadata } from '../datasets';
import { bed, failure, run, runner, useSourceTestbed } from '../../test/engine/source-testbed';

// The source steps on real DuckDB, reading real files from a folder as the engine hands them over.

useSourceTestbed();

describe('import_dataset', () => {
  it('copies a dataset the owner has, keeping its record ids', async () => {
    const source = await run('import_csv', { file: bed.addFile('ids.csv', 'a\n1\n2\n3\n') });
    bed.own(source.meta);
    const ctx = bed.context({ sampleSize: 2 });
    const copy = await runner('import_dataset').run(ctx, { dataset: source.meta.id });
    const ids = async (meta: DatasetMetadata) => (await bed.datasets.records(meta, { page: 1, pageSize: 10 })).items.map((r) => r._id);
    expect(await ids(copy)).toEqual((await ids(source.meta)).slice(0, 2));
    expect(copy.columns).toEqual(source.meta.columns);
    expect(await failure('import_dataset', { dataset: 'someone-elses' })).toBe(
      'The step failed while running: The dataset someone-elses is not among your datasets',
    );
  });
});
