import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config/config';
import { ValidationFailed } from '../../lib/errors';
import { createStorage } from '../../storage';
import { Datasets, type DatasetMetadata, type JsonRecord, type RowColumn } from '../../engine/datasets';
import type { ParamValues } from '../../engine/params';
import { getStepType } from '../../engine/step-types';
import { runSqlStep, StepParamsInvalid, type SqlRunner, type Vars } from '../../engine/runners';

/**
 * The SQL steps' tests on real DuckDB over Parquet snapshots in a local storage folder, as
 * `npm start` runs them: a "People" dataset (unicode, nulls, quotes) and an empty one, and helpers
 * that run a step, compare what it promised (`outputColumns`) with what it wrote, or collect what
 * it refuses. `useSqlTestbed()` at the top of a test file sets it up; the bindings below are live.
 */
export const owner = '6c0f8f8e-2f4e-4f57-9d7a-3b8f1f6c2a10';
let dir: string;
export let datasets: Datasets;

export function useSqlTestbed(name: string): void {
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `stepwise-${name}-`));
    const config = loadConfig({ DATA_DIR: dir, DUCKDB_THREADS: '2', DUCKDB_MEMORY_LIMIT: '512MB' });
    datasets = new Datasets({ storage: createStorage(config).storage, config: config.datasets });
  });
  afterAll(async () => {
    await datasets.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeAll(async () => {
    people = await store('People', peopleColumns, peopleRows);
    empty = await store('Nobody', peopleColumns, []);
    peopleIds = Object.fromEntries((await rowsOf(people)).map((r) => [r.name as string, r._id as string]));
  });
}

export const peopleColumns: RowColumn[] = [
  { name: 'name', type: 'VARCHAR' },
  { name: 'city', type: 'VARCHAR' },
  { name: 'age', type: 'BIGINT' },
  { name: 'score', type: 'DOUBLE' },
];
export const peopleRows = [
  { name: 'Ada', city: 'London', age: 36, score: 9.5 },
  { name: 'Ärger', city: 'München', age: 41, score: 7.25 },
  { name: '李雷', city: '北京', age: 28, score: null },
  { name: 'Bob', city: null, age: null, score: 3 },
  { name: ' ada ', city: 'london', age: 36, score: 1 },
  { name: "O'Brien", city: 'Dublin', age: 55, score: -1 },
];

export const store = (name: string, columns: RowColumn[], rows: Record<string, unknown>[]) =>
  datasets.write({ ownerId: owner, name, source: { columns, batches: [rows] } });

export let people: DatasetMetadata;
export let empty: DatasetMetadata;
export let peopleIds: Record<string, string>;

export async function rowsOf(meta: DatasetMetadata): Promise<JsonRecord[]> {
  return (await datasets.records(meta, { page: 1, pageSize: 1000 })).items;
}

export const runner = (id: string) => getStepType(id)!.runner as SqlRunner;

export const run = (stepType: string, inputs: DatasetMetadata[], params: ParamValues, vars?: Vars) =>
  runSqlStep(datasets, { runner: runner(stepType), inputs, params, vars, ownerId: owner, name: stepType });

/** Runs a step and answers its rows without `_id`, plus the ids apart. */
export async function output(stepType: string, inputs: DatasetMetadata[], params: ParamValues, vars?: Vars) {
  const meta = await run(stepType, inputs, params, vars);
  // What the runner promised before running is what the file has (names always; types where known).
  const promised = runner(stepType).outputColumns(
    inputs.map((i) => i.columns),
    params,
    vars,
  );
  expect(meta.columns.map((c) => c.name)).toEqual(promised.map((c) => c.name));
  promised.forEach((c, i) => {
    if (c.type !== 'UNKNOWN') expect([c.name, meta.columns[i].type]).toEqual([c.name, c.type]);
  });
  const rows = await rowsOf(meta);
  return { meta, rows: rows.map(({ _id, ...rest }) => rest), ids: rows.map((r) => r._id as string) };
}

/** The problems a step refuses with; the writer is never reached. */
export async function refused(stepType: string, inputs: DatasetMetadata[], params: ParamValues, vars?: Vars) {
  const write = jest.fn();
  const err = await runSqlStep({ write }, { runner: runner(stepType), inputs, params, vars, ownerId: owner, name: 'x' }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(write).not.toHaveBeenCalled();
  expect(err).toBeInstanceOf(StepParamsInvalid);
  // A ValidationFailed: the API answers it 422 {errors: [{msg, loc}]}.
  expect(err).toBeInstanceOf(ValidationFailed);
  return (err as StepParamsInvalid).problems;
}

export const names = (rows: JsonRecord[]) => rows.map((r) => r.name);
