import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { client } from '../../test/files-client';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { queueDrained } from '../../test/wait';
import { workflowClient } from '../../test/workflow-helpers';
import { COUNT_FILE_ROWS_JOB } from '../files/file-row-counts';

/*
 * Issue 11/13: before the first run of a source, the estimate said "≈ 0 credits" for an HTTP step
 * over a 3,201-row file. A data file's records are now counted when it is uploaded (a queued job)
 * or when an estimate first needs them, and kept on the file; what cannot be counted cheaply is
 * said to be unknown, never 0. A preview's estimate is the preview's cost.
 */

// Over Jest's 5 s on a loaded machine: uploads, DuckDB counts and a job queue drained (1–3 s idle).
jest.setTimeout(30_000);

const csvOf = (rows: number) => `id,name\n${Array.from({ length: rows }, (_, i) => `${i},person ${i}`).join('\n')}\n`;

async function signedIn(t: TestApp) {
  const owner = await signedInUser(t.app);
  const files = client(t.app, owner.auth);
  const wf = workflowClient(t.app, owner.auth);
  const upload = async (name: string, data: Buffer | string): Promise<string> => {
    const res = await files.upload([{ name, data }]);
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json().items[0].id as string;
  };
  const estimate = async (workflowId: string, query: string) => (await wf.call('GET', `/workflows/${workflowId}/cost-estimate?${query}`)).body;
  /** A source reading the file, then an HTTP request per record (0.1 credits each). */
  const workflowOver = async (sourceType: string, params: object) => {
    const workflowId = (await wf.createWorkflow('Look people up')).id as string;
    const source = await wf.addStep(workflowId, sourceType, { param_inputs: params });
    const http = await wf.addStep(workflowId, 'http_request', { inputs: [source.id], param_inputs: { url: 'https://example.com/people/{{field.id}}' } });
    return { workflowId, source: source.id as string, http: http.id as string };
  };
  return { owner, files, upload, estimate, workflowOver };
}

const stored = (t: TestApp, id: string) =>
  t.app.db.selectFrom('files').select(['row_count', 'row_count_format', 'row_count_state']).where('id', '=', id).executeTakeFirstOrThrow();

describe('the estimate before a first run, with the file counted at upload', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ IN_PROCESS_WORKER: 'true', STEP_PRICES: '{"http_request": 0.1}' });
  });
  afterAll(async () => t?.close());

  it('counts an uploaded CSV and estimates the HTTP step over its 3,201 records; a preview costs its 100', async () => {
    const { upload, estimate, workflowOver } = await signedIn(t);
    const fileId = await upload('people.csv', csvOf(3201));
    await queueDrained(t.app.jobs, COUNT_FILE_ROWS_JOB);
    expect(await stored(t, fileId)).toEqual({ row_count: 3201, row_count_format: 'csv', row_count_state: 'counted' });

    const { workflowId, source, http } = await workflowOver('import_csv', { file: fileId });
    const full = await estimate(workflowId, `step_id=${http}&mode=up_to`);
    expect(full).toMatchObject({
      credits: 320.1,
      unknown: false,
      enough: false,
      lines: [
        { step_id: source, per: 'run', credits: 0 },
        { step_id: http, per: 'record', records: 3201, credits: 320.1, unknown: false },
      ],
    });
    // "Preview on 100 records": each source reads at most 100, so the preview costs 100 calls.
    expect(await estimate(workflowId, `step_id=${http}&mode=up_to&sample_size=100`)).toMatchObject({
      credits: 10,
      unknown: false,
      enough: true,
      lines: [{ step_id: source }, { step_id: http, records: 100, credits: 10 }],
    });
    // Nothing has run: the count came from the upload.
    expect(await t.app.db.selectFrom('workflow_runs').select('id').where('workflow_id', '=', workflowId).execute()).toEqual([]);
  });

  it('counts a headerless read one record more (its first line is a record too)', async () => {
    const { upload, estimate, workflowOver } = await signedIn(t);
    const fileId = await upload('ids.csv', csvOf(40));
    const { workflowId, http } = await workflowOver('import_csv', { file: fileId, has_header: false });
    expect(await estimate(workflowId, `step_id=${http}&mode=up_to`)).toMatchObject({ credits: 4.1, lines: [{}, { records: 41 }] });
  });
});

describe('the estimate before a first run, counting the file when it first asks', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    // No worker: the upload's count job waits in the queue, so the estimate is the first to count.
    t = await createTestApp({ STEP_PRICES: '{"http_request": 0.1}' });
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'stepwise-counts-'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
  });

  it('queues the count after an upload, and counts JSON, JSON Lines and Parquet when the estimate needs them', async () => {
    const { upload, estimate, workflowOver } = await signedIn(t);
    const json = await upload('people.json', JSON.stringify(Array.from({ length: 25 }, (_, i) => ({ id: i }))));
    expect(await t.app.jobs.unfinished(COUNT_FILE_ROWS_JOB)).toBeGreaterThan(0);
    expect(await stored(t, json)).toEqual({ row_count: null, row_count_format: null, row_count_state: null });

    const jsonl = await upload('people.jsonl', Array.from({ length: 7 }, (_, i) => JSON.stringify({ id: i })).join('\n'));
    const parquetPath = path.join(dir, 'people.parquet');
    const duck = await DuckDBInstance.create(':memory:');
    const connection = await duck.connect();
    await connection.run(`COPY (SELECT range AS id FROM range(1234)) TO '${parquetPath}' (FORMAT parquet)`);
    connection.closeSync();
    duck.closeSync();
    const parquet = await upload('people.parquet', await fs.promises.readFile(parquetPath));

    for (const [fileId, rows] of [
      [json, 25],
      [jsonl, 7],
      [parquet, 1234],
    ] as const) {
      const { workflowId, http } = await workflowOver('import_file', { file: fileId });
      expect(await estimate(workflowId, `step_id=${http}&mode=up_to`)).toMatchObject({ unknown: false, lines: [{}, { records: rows }] });
      expect(await stored(t, fileId)).toMatchObject({ row_count: rows, row_count_state: 'counted' });
      // A preview reads at most 100 of them.
      expect(await estimate(workflowId, `step_id=${http}&mode=up_to&sample_size=100`)).toMatchObject({ lines: [{}, { records: Math.min(100, rows) }] });
    }
  });

  it('says the cost is unknown, not 0, when the records cannot be counted before a run', async () => {
    const { files, upload, estimate, workflowOver } = await signedIn(t);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('People');
    sheet.addRow(['id']);
    for (let i = 0; i < 30; i++) sheet.addRow([i]);
    const xlsx = await upload('people.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    // Line 4 has three values where the lines before it have two: a run would fail and say so.
    const ragged = await upload('ragged.csv', 'id,name\n1,a\n2,b\n3,c,d\n4,e\n');
    const csv = await upload('people.csv', csvOf(10));

    for (const [sourceType, params] of [
      ['import_file', { file: xlsx }],
      ['import_csv', { file: ragged }],
      // Read in another format than the one it was counted in.
      ['import_file', { file: csv, format: 'json' }],
    ] as const) {
      const { workflowId, http } = await workflowOver(sourceType, params);
      expect(await estimate(workflowId, `step_id=${http}&mode=up_to`)).toMatchObject({
        credits: 0,
        unknown: true,
        enough: true,
        lines: [{}, { per: 'record', records: null, credits: 0, unknown: true }],
      });
    }
    // A file deleted after it was chosen.
    const gone = await upload('gone.csv', csvOf(5));
    const chosen = await workflowOver('import_csv', { file: gone });
    expect((await files.call('DELETE', `/${gone}`)).statusCode).toBe(200);
    expect(await estimate(chosen.workflowId, `step_id=${chosen.http}&mode=up_to`)).toMatchObject({ credits: 0, unknown: true, lines: [{}, { records: null }] });

    expect(await stored(t, xlsx)).toEqual({ row_count: null, row_count_format: null, row_count_state: 'unknown' });
    expect(await stored(t, ragged)).toEqual({ row_count: null, row_count_format: null, row_count_state: 'unknown' });
    // Only a priced per-record step makes the cost unknown: the source alone is free, and known.
    const { workflowId, source } = await workflowOver('import_file', { file: xlsx });
    expect(await estimate(workflowId, `step_id=${source}&mode=only`)).toMatchObject({ credits: 0, unknown: false });
  });
});
