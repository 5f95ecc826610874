import fs from 'node:fs';
import type { DatasetMetadata } from '../../engine/datasets';
import { formulaColumns, formulaCsvLines, formulaRows, rawFormulaCsvLines } from '../../test/formula-cells';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { DatasetsService } from './datasets.service';

/*
 * A dataset's CSV download and spreadsheet formulas (docs/decisions/0060-csv-formula-injection.md):
 * text cells and column names a spreadsheet would run get a `'` in front unless `raw=true`;
 * numbers stay numbers; Parquet is the snapshot itself either way.
 */
describe('the CSV download and formulas', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let formulas: DatasetMetadata;

  const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: owner.auth });
  /** The file's lines without the `_id` field each starts with (ids hold no comma). */
  const linesOf = (body: string) => body.split('\n').map((line) => line.slice(line.indexOf(',') + 1));

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    formulas = await t.app.datasets.write({
      ownerId: owner.user.id as string,
      name: 'Formulas',
      source: { columns: formulaColumns, batches: [formulaRows] },
    });
    await new DatasetsService(t.app.db, t.app.datasets).registerDataset(formulas);
  });
  afterAll(() => t.close());

  it("puts ' before text cells and column names a spreadsheet would run, and leaves negative numbers as numbers", async () => {
    for (const query of ['format=csv', 'format=csv&raw=false', '']) {
      const res = await get(`/datasets/${formulas.id}/download${query ? `?${query}` : ''}`);
      expect([query, res.statusCode, res.headers['content-type']]).toEqual([query, 200, 'text/csv; charset=utf-8']);
      expect(res.body.startsWith('_id,')).toBe(true);
      expect(linesOf(res.body)).toEqual(formulaCsvLines);
    }
  });

  it('writes every value and name as stored with raw=true', async () => {
    const res = await get(`/datasets/${formulas.id}/download?format=csv&raw=true`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('filename="Formulas.csv"');
    expect(linesOf(res.body)).toEqual(rawFormulaCsvLines);
  });

  it('answers the Parquet snapshot itself whatever raw says, and 422 for a raw that is not a boolean', async () => {
    const stored = await t.app.datasets.files.open(formulas.storageKey);
    try {
      const snapshot = await fs.promises.readFile(stored.path);
      for (const raw of ['true', 'false']) {
        const res = await get(`/datasets/${formulas.id}/download?format=parquet&raw=${raw}`);
        expect([raw, res.statusCode, res.rawPayload.equals(snapshot)]).toEqual([raw, 200, true]);
      }
    } finally {
      stored.release();
    }
    const bad = await get(`/datasets/${formulas.id}/download?format=csv&raw=maybe`);
    expect([bad.statusCode, bad.json().errors[0].loc]).toEqual([422, ['query', 'raw']]);
  });

  it('documents raw as an optional query parameter beside an unchanged format', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const parameters: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[] =
      doc.paths['/api/v1/datasets/{datasetId}/download'].get.parameters;
    const byName = Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(['columns', 'filters', 'format', 'include_id', 'raw', 'sort']);
    expect(byName.raw.required ?? false).toBe(false);
    expect(byName.raw.schema).toMatchObject({ type: 'boolean', default: false });
    // The existing parameter as it was before raw came (required in the document, though its default lets a call leave it out).
    expect(byName.format).toEqual({
      in: 'query',
      name: 'format',
      required: true,
      schema: {
        default: 'csv',
        anyOf: [
          { type: 'string', enum: ['csv'] },
          { type: 'string', enum: ['parquet'] },
        ],
      },
      description: '`csv` (a header row, then every record, `_id` first) or `parquet` (the stored snapshot itself).',
    });
  });
});
