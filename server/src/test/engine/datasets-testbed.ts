import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config/config';
import { Datasets, InvalidRecordsQuery, type DatasetMetadata, type JsonRecord, type RecordsQuery } from '../../engine/datasets';
import { createStorage, type Storage } from '../../storage';

/** The owner every dataset of these tests belongs to. */
export const owner = '6c0f8f8e-2f4e-4f57-9d7a-3b8f1f6c2a10';

/**
 * Real DuckDB over real Parquet files in a local storage folder, as `npm start` runs it: made before
 * the file's tests and removed after them. Read its parts inside tests (they exist from beforeAll).
 */
export function localDatasets() {
  const bed = {} as { dir: string; storage: Storage; datasets: Datasets };
  beforeAll(() => {
    bed.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-datasets-'));
    const config = loadConfig({ DATA_DIR: bed.dir, DUCKDB_THREADS: '2', DUCKDB_MEMORY_LIMIT: '512MB' });
    bed.storage = createStorage(config).storage;
    // Small enough that a 5,000-row dataset gets ordered copies.
    bed.datasets = new Datasets({ storage: bed.storage, config: config.datasets, orderedCopyMinRows: 1000 });
  });
  afterAll(async () => {
    await bed.datasets.close();
    fs.rmSync(bed.dir, { recursive: true, force: true });
  });
  return bed;
}

/** Every record of a query, page by page, the way a person scrolls through them. */
export async function allPages(datasets: Datasets, ref: DatasetMetadata, query: RecordsQuery, pageSize = 7): Promise<JsonRecord[]> {
  const out: JsonRecord[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await datasets.records(ref, { ...query, page, pageSize });
    out.push(...items);
    if (!items.length || out.length >= total) return out;
  }
}

/** What a caller outside TypeScript may send where a typed value is expected. */
export const fromOutside = <T>(value: unknown) => value as T;

/** The problems a records query was refused for, as the route would report them. */
export async function queryError(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidRecordsQuery);
  return (err as InvalidRecordsQuery).issues.map(({ code, loc, key, values }) => ({ code, loc, key, values }));
}
