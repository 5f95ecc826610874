import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { loadConfig } from '../../config/config';
import { translate } from '../../i18n/messages';
import { DomainError, ValidationFailed } from '../../lib/errors';
import { createStorage } from '../../storage';
import { Datasets, type DatasetMetadata, type RowColumn } from '../datasets';
import { AddressPolicy, createOutboundHttpClient, type OutboundHttpClient } from '../outbound-http';
import type { ParamValues } from '../params';
import { getRunner, StepRunFailed, type SinkRunner, type Vars } from '.';
import { sinkTestContext } from './sinks.test-context';

// The sinks on real DuckDB over Parquet snapshots in a local storage folder, and the webhook
// against a real HTTP server on 127.0.0.1 (reachable through a client whose address policy
// allows loopback, as an operator would allow it; the default policy refuses it).

let dir: string;
let scratchDir: string;
let datasets: Datasets;
let server: http.Server;
let base: string;
let loopback: OutboundHttpClient;
let strict: OutboundHttpClient;

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
const hits = new Map<string, number>();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-sinks-'));
  const config = loadConfig({ DATA_DIR: dir, DUCKDB_THREADS: '2', DUCKDB_MEMORY_LIMIT: '512MB' });
  datasets = new Datasets({ storage: createStorage(config).storage, config: config.datasets });
  scratchDir = path.join(config.datasets.tempDir, 'datasets', 'sink-scratch');

  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const n = (hits.get(url.pathname) ?? 0) + 1;
      hits.set(url.pathname, n);
      received.push({ path: url.pathname + url.search, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (url.pathname === '/limited' && n === 1) {
        res.writeHead(429, { 'retry-after': '0' });
        return res.end('slow down');
      }
      if (url.pathname === '/broken') {
        // Retry-After 0 keeps the retries immediate, so the test does not wait on backoff.
        res.writeHead(500, { 'retry-after': '0' });
        return res.end('oops');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  loopback = createOutboundHttpClient({ policy: new AddressPolicy({ allowedHosts: ['127.0.0.1/32'] }), defaultTimeoutMs: 5000 });
  strict = createOutboundHttpClient({ policy: new AddressPolicy(), defaultTimeoutMs: 5000 });
});

afterAll(async () => {
  await Promise.all([loopback.close(), strict.close()]);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await datasets.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  received.length = 0;
  hits.clear();
});

const owner = '6c0f8f8e-2f4e-4f57-9d7a-3b8f1f6c2a10';
const columns: RowColumn[] = [
  { name: 'name', type: 'VARCHAR' },
  { name: 'note', type: 'VARCHAR' },
  { name: 'amount', type: 'DOUBLE' },
  { name: 'count', type: 'BIGINT' },
  { name: 'day', type: 'DATE' },
  { name: 'at', type: 'TIMESTAMP' },
];
const rows = [
  { name: 'Ada', note: 'plain', amount: 9.5, count: 3, day: '2024-01-15', at: '2024-01-15T12:34:56' },
  { name: '李雷', note: 'says "hi", then; leaves', amount: -1.25, count: null, day: null, at: null },
  { name: 'Ärger', note: 'two\nlines', amount: null, count: 9007199254740991, day: '1999-12-31', at: '2000-01-01T00:00:00' },
  { name: "O'Brien", note: '', amount: 0, count: 0, day: '2024-02-29', at: '2024-02-29T23:59:59' },
];

let people: DatasetMetadata;
let empty: DatasetMetadata;
let many: DatasetMetadata;
beforeAll(async () => {
  people = await datasets.write({ ownerId: owner, name: 'People', source: { columns, batches: [rows] } });
  empty = await datasets.write({ ownerId: owner, name: 'Nobody', source: { columns, batches: [[]] } });
  many = await datasets.write({
    ownerId: owner,
    name: 'Many',
    source: { columns: [{ name: 'n', type: 'BIGINT' }], batches: [Array.from({ length: 250 }, (_, i) => ({ n: i + 1 }))] },
  });
});

const sink = (id: string) => getRunner(id) as SinkRunner;
let runCount = 0;
const contextFor = (vars: Vars = {}, http: OutboundHttpClient = loopback) =>
  sinkTestContext({ datasets, http, dir: path.join(dir, `run-${++runCount}`), scratchDir, vars });

async function run(id: string, params: ParamValues, input: DatasetMetadata = people, vars: Vars = {}, http: OutboundHttpClient = loopback) {
  const test = contextFor(vars, http);
  const result = await sink(id).run(test.ctx, [input], params);
  return { ...test, result, text: () => fs.readFileSync(test.saved[0].path, 'utf8') };
}

async function failure(promise: Promise<unknown>): Promise<DomainError | ValidationFailed> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError || err instanceof ValidationFailed) return err;
    throw err;
  }
  throw new Error('expected the step to fail');
}

const messageOf = (err: DomainError) => translate('en', err.messageKey, err.values);

describe('the sinks pass their input on', () => {
  it("answer the input's columns unchanged, `_id` included", () => {
    const input = [{ name: '_id', type: 'VARCHAR' }, ...columns];
    for (const [id, params] of [
      ['export_csv', {}],
      ['export_parquet', {}],
      ['export_file', { format: 'xlsx' }],
      ['webhook', { url: 'https://hooks.example.com/x' }],
    ] as const) {
      expect([id, sink(id).outputColumns([input], params, {})]).toEqual([id, input]);
    }
  });
});

describe('file names', () => {
  it('render {{var.x}} and are saved under that name in the chosen folder', async () => {
    const out = await run('export_csv', { file_name: 'people-{{var.month}} ({{ var.n }}).csv', folder: 'f-1' }, people, { month: '2024-03', n: 7 });
    expect(out.saved.map((s) => [s.name, s.folderId])).toEqual([['people-2024-03 (7).csv', 'f-1']]);
    expect(out.result.files).toEqual([out.saved[0].file]);
    // The scratch file was moved into the files, nothing is left behind.
    expect(fs.readdirSync(scratchDir)).toEqual([]);
  });

  it('default per step and format', async () => {
    expect((await run('export_csv', {})).saved[0].name).toBe('export.csv');
    expect((await run('export_parquet', {})).saved[0].name).toBe('export.parquet');
    expect((await run('export_file', { format: 'jsonl' })).saved[0].name).toBe('export.jsonl');
    expect((await run('export_file', {})).saved[0].name).toBe('export.xlsx');
  });

  it('refuse slashes, control characters, over-long names and unknown variables at ["file_name"]', async () => {
    const cases: [ParamValues, Vars, string][] = [
      [{ file_name: '../etc/passwd' }, {}, '“../etc/passwd” cannot be a file name: give 1 to 255 characters, without “/”, “\\” or control characters.'],
      [
        { file_name: '{{var.sub}}.csv' },
        { sub: 'a\\b' },
        '“a\\b.csv” cannot be a file name: give 1 to 255 characters, without “/”, “\\” or control characters.',
      ],
      [{ file_name: 'a\tb.csv' }, {}, '“a\tb.csv” cannot be a file name: give 1 to 255 characters, without “/”, “\\” or control characters.'],
      [
        { file_name: `{{var.long}}.csv` },
        { long: 'x'.repeat(252) },
        `“${'x'.repeat(64)}…” cannot be a file name: give 1 to 255 characters, without “/”, “\\” or control characters.`,
      ],
      [{ file_name: 'report-{{var.missing}}.csv' }, {}, '“{{var.missing}}” has no value here: only workflow variables can stand for this setting.'],
    ];
    for (const [params, vars, message] of cases) {
      const err = await failure(run('export_csv', params, people, vars));
      expect(err).toBeInstanceOf(ValidationFailed);
      expect((err as ValidationFailed).problems.map((p) => [p.loc, translate('en', p.key, p.values)])).toEqual([[['file_name'], message]]);
      // outputColumns checks the same before a run, when it knows the variables.
      expect(() => sink('export_csv').outputColumns([people.columns], params, vars)).toThrow(ValidationFailed);
    }
  });
});

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

describe('export_parquet', () => {
  it('writes a Parquet file DuckDB reads back with the same types and values, ZSTD by default', async () => {
    const out = await run('export_parquet', {});
    const file = out.saved[0].path;
    // Read back through the datasets' own DuckDB: the saved file is copied under its scratch folder.
    const copy = path.join(scratchDir, 'readback.parquet');
    fs.copyFileSync(file, copy);
    try {
      const { back, codecs, types } = await datasets.pool.use(async (c) => ({
        back: (await c.runAndReadAll(`SELECT * FROM read_parquet('${copy}')`)).getRowObjectsJson(),
        codecs: (await c.runAndReadAll(`SELECT DISTINCT compression FROM parquet_metadata('${copy}')`)).getRows().map((r) => r[0]),
        types: (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${copy}')`)).getRows().map((r) => [r[0], r[1]]),
      }));
      expect(types).toEqual(columns.map((c) => [c.name, c.type]));
      expect(codecs).toEqual(['ZSTD']);
      expect(back).toEqual([
        { name: 'Ada', note: 'plain', amount: 9.5, count: '3', day: '2024-01-15', at: '2024-01-15 12:34:56' },
        { name: '李雷', note: 'says "hi", then; leaves', amount: -1.25, count: null, day: null, at: null },
        { name: 'Ärger', note: 'two\nlines', amount: null, count: '9007199254740991', day: '1999-12-31', at: '2000-01-01 00:00:00' },
        { name: "O'Brien", note: '', amount: 0, count: '0', day: '2024-02-29', at: '2024-02-29 23:59:59' },
      ]);
    } finally {
      fs.rmSync(copy, { force: true });
    }
  });
});

describe('export_file', () => {
  const expected = [
    { name: 'Ada', note: 'plain', amount: 9.5, count: 3, day: '2024-01-15', at: '2024-01-15 12:34:56' },
    { name: '李雷', note: 'says "hi", then; leaves', amount: -1.25, count: null, day: null, at: null },
    { name: 'Ärger', note: 'two\nlines', amount: null, count: 9007199254740991, day: '1999-12-31', at: '2000-01-01 00:00:00' },
    { name: "O'Brien", note: '', amount: 0, count: 0, day: '2024-02-29', at: '2024-02-29 23:59:59' },
  ];

  it('writes JSON as one array of records', async () => {
    const out = await run('export_file', { format: 'json', file_name: 'people.json' });
    expect(JSON.parse(out.text())).toEqual(expected);
    expect(JSON.parse((await run('export_file', { format: 'json' }, empty)).text())).toEqual([]);
  });

  it('writes JSON Lines as one record per line', async () => {
    const lines = (await run('export_file', { format: 'jsonl' })).text().trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(expected);
  });

  it('writes XLSX with a header row, numbers as numbers and dates as dates', async () => {
    const out = await run('export_file', { format: 'xlsx', include_record_id: true });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(out.saved[0].path);
    const sheet = workbook.worksheets[0];
    const values = sheet
      .getSheetValues()
      .slice(1)
      .map((row) => (row as ExcelJS.CellValue[]).slice(1));
    const ids = (await datasets.records(people, { page: 1, pageSize: 10 })).items.map((r) => r._id);
    expect(values[0]).toEqual(['_id', 'name', 'note', 'amount', 'count', 'day', 'at']);
    expect(values[1]).toEqual([ids[0], 'Ada', 'plain', 9.5, 3, new Date('2024-01-15T00:00:00Z'), new Date('2024-01-15T12:34:56Z')]);
    // Empty cells are absent from exceljs' rows.
    expect(values[2]).toEqual([ids[1], '李雷', 'says "hi", then; leaves', -1.25]);
    expect(values[3]).toEqual([ids[2], 'Ärger', 'two\nlines', undefined, 9007199254740991, new Date('1999-12-31T00:00:00Z'), new Date('2000-01-01T00:00:00Z')]);
    expect(values.length).toBe(5);
    expect(sheet.getCell('F2').numFmt).toBe('yyyy-mm-dd');
  });

  it('refuses more records than an Excel sheet holds, before writing anything', async () => {
    const huge = { ...people, rowCount: 1_048_576 };
    const err = (await failure(run('export_file', { format: 'xlsx' }, huge))) as DomainError;
    expect(err).toBeInstanceOf(StepRunFailed);
    expect(messageOf(err)).toBe(
      'An Excel sheet holds at most 1,048,575 records, but the table has 1,048,576: filter it first, or export CSV or Parquet instead.',
    );
    expect(fs.readdirSync(scratchDir)).toEqual([]);
  });
});

describe('webhook', () => {
  const bodies = () => received.map((r) => JSON.parse(r.body) as { delivery_id: string; request: number; requests: number; records: { n: number }[] });

  it('posts the records as JSON in chunks, in order, and sums up what it sent', async () => {
    const out = await run('webhook', { url: `${base}/hook?m={{var.month}}`, records_per_request: 100 }, many, { month: '2024-03' });
    expect(received.map((r) => [r.path, r.headers['content-type']])).toEqual([
      ['/hook?m=2024-03', 'application/json'],
      ['/hook?m=2024-03', 'application/json'],
      ['/hook?m=2024-03', 'application/json'],
    ]);
    const sent = bodies();
    expect(sent.map((b) => [b.request, b.requests, b.records.length, b.delivery_id])).toEqual([
      [1, 3, 100, `${out.ctx.stepRunId}-1`],
      [2, 3, 100, `${out.ctx.stepRunId}-2`],
      [3, 3, 50, `${out.ctx.stepRunId}-3`],
    ]);
    expect(sent.flatMap((b) => b.records.map((r) => r.n))).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(Object.keys(sent[0].records[0])).toEqual(['_id', 'n']);
    expect(out.result.summary).toEqual({ requests: 3, records: 250, last_status: 200 });
  });

  it('sends everything in one request when asked, and nothing for an empty table', async () => {
    const one = await run('webhook', { url: `${base}/hook`, all_in_one_request: true }, many);
    expect(bodies().map((b) => [b.request, b.requests, b.records.length])).toEqual([[1, 1, 250]]);
    expect(one.result.summary).toEqual({ requests: 1, records: 250, last_status: 200 });
    received.length = 0;
    const none = await run('webhook', { url: `${base}/hook` }, empty);
    expect(received).toEqual([]);
    expect(none.result.summary).toEqual({ requests: 0, records: 0, last_status: null });
  });

  it('sends the secret header and a signature the receiver can verify', async () => {
    await run('webhook', { url: `${base}/hook`, secret_header: 'X-Api-Key', secret: '{{var.key}}', signing_secret: 'whsec_test' }, people, { key: 'k-123' });
    const [request] = received;
    expect(request.headers['x-api-key']).toBe('k-123');
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-stepwise-signature']));
    expect(match).not.toBeNull();
    const [, t, v1] = match!;
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60);
    expect(v1).toBe(createHmac('sha256', 'whsec_test').update(`${t}.${request.body}`).digest('hex'));
    expect(JSON.parse(request.body).records.map((r: { name: string }) => r.name)).toEqual(['Ada', '李雷', 'Ärger', "O'Brien"]);
  });

  it('retries a 429 and carries on', async () => {
    const out = await run('webhook', { url: `${base}/limited`, records_per_request: 2 });
    expect(received.map((r) => JSON.parse(r.body).request)).toEqual([1, 1, 2]);
    expect(out.result.summary).toEqual({ requests: 2, records: 4, last_status: 200 });
    expect(out.logs[0]).toMatch(/^Webhook request 1: attempt 1 failed \(status 429\), retrying in 0 ms$/);
  });

  it('fails naming the status when the webhook keeps answering 500', async () => {
    const err = (await failure(run('webhook', { url: `${base}/broken` }))) as DomainError;
    expect(err).toBeInstanceOf(StepRunFailed);
    expect(messageOf(err)).toBe('The webhook answered 500 to request 1 of 1, after 4 attempt(s).');
    expect(received.length).toBe(4);
  });

  it('refuses private addresses under the default address policy', async () => {
    const err = (await failure(run('webhook', { url: `${base}/hook` }, people, {}, strict))) as DomainError;
    expect(err).toBeInstanceOf(StepRunFailed);
    expect(messageOf(err)).toBe(
      'Calls to 127.0.0.1 are not allowed: it leads to a private, local or reserved address (127.0.0.1). An administrator can allow it with HTTP_STEPS_ALLOWED_HOSTS.',
    );
    expect(received).toEqual([]);
  });

  it('refuses a bad URL, header name or chunk size at the param', () => {
    const check = (params: ParamValues) => {
      try {
        sink('webhook').outputColumns([people.columns], params, {});
      } catch (err) {
        return (err as ValidationFailed).problems.map((p) => [p.loc, translate('en', p.key, p.values)]);
      }
      return [];
    };
    expect(check({ url: 'ftp://example.com/x' })[0][0]).toEqual(['url']);
    expect(check({ url: 'https://example.com', secret_header: 'Bad Header' })).toEqual([
      [['secret_header'], '“Bad Header” cannot be a header name: use letters, digits and - only.'],
    ]);
    expect(check({ url: 'https://example.com', records_per_request: 1001 })).toEqual([
      [['records_per_request'], translate('en', 'server.params.maximum', { limit: 1000 })],
    ]);
  });

  it('stops when the run is cancelled', async () => {
    const test = contextFor();
    test.abort.abort(new Error('cancelled'));
    await expect(sink('webhook').run(test.ctx, [many], { url: `${base}/hook` })).rejects.toThrow('cancelled');
    expect(received).toEqual([]);
  });
});
