import ExcelJS from 'exceljs';
import type { DatasetMetadata, JsonRecord } from '../../engine/datasets';
import { translate } from '../../i18n/messages';
import type { ParamValues } from '../../engine/params';
import { getStepType } from '../../engine/step-types';
import { StepParamsInvalid, StepRunFailed, type SourceRunner } from '../../engine/runners';
import { createRunnerTestbed, type RunnerTestbed } from './runner-testbed';

/**
 * The source steps' tests on real DuckDB, reading real files from a folder as the engine hands
 * them over: `useSourceTestbed()` at the top of a test file sets it up; `bed` is live.
 */

export let bed: RunnerTestbed;

export function useSourceTestbed(): void {
  beforeAll(() => {
    bed = createRunnerTestbed();
  });
  afterAll(() => bed.close());
}

export const runner = (id: string) => getStepType(id)!.runner as SourceRunner;

export async function rowsOf(meta: DatasetMetadata): Promise<JsonRecord[]> {
  return (await bed.datasets.records(meta, { page: 1, pageSize: 1000 })).items.map(({ _id, ...rest }) => rest);
}

export async function run(stepType: string, params: ParamValues, options: { sampleSize?: number | null } = {}) {
  const ctx = bed.context(options);
  const meta = await runner(stepType).run(ctx, params);
  expect(meta.id).toBe(ctx.output.datasetId);
  expect(meta.columns[0]).toEqual({ name: '_id', type: 'VARCHAR' });
  return { meta, rows: await rowsOf(meta), types: Object.fromEntries(meta.columns.slice(1).map((c) => [c.name, c.type])), ctx };
}

/** The English text a failed run shows. */
export async function failure(stepType: string, params: ParamValues): Promise<string> {
  const err = await runner(stepType)
    .run(bed.context(), params)
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(StepRunFailed);
  const e = err as StepRunFailed;
  return translate('en', e.messageKey, e.values);
}

export function paramProblems(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StepParamsInvalid);
    return (err as StepParamsInvalid).problems.map((p) => ({ loc: p.loc, msg: translate('en', p.key, p.values) }));
  }
  throw new Error('expected StepParamsInvalid');
}

/** An Excel workbook built in memory, as a file's bytes. */
export async function workbook(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
