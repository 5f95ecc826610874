import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../config/config';
import { translate } from '../../i18n/messages';
import { DomainError, ValidationFailed } from '../../lib/errors';
import { createStorage } from '../../storage';
import { Datasets, type DatasetMetadata, type RowColumn } from '../../engine/datasets';
import { AddressPolicy, createOutboundHttpClient, type OutboundHttpClient } from '../../engine/outbound-http';
import type { ParamValues } from '../../engine/params';
import { getStepType } from '../../engine/step-types';
import { type SinkRunner, type Vars } from '../../engine/runners';
import { formulaColumns, formulaRows } from '../formula-cells';
import { sinkTestContext } from './sink-test-context';

// The sinks' tests on real DuckDB over Parquet snapshots in a local storage folder, and the webhook
// against a real HTTP server on 127.0.0.1 (reachable through a client whose address policy
// allows loopback, as an operator would allow it; the default policy refuses it).

export let dir: string;
export let scratchDir: string;
export let datasets: Datasets;
export let server: http.Server;
export let base: string;
export let loopback: OutboundHttpClient;
export let strict: OutboundHttpClient;

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
export const received: Received[] = [];
export const hits = new Map<string, number>();

export const owner = '6c0f8f8e-2f4e-4f57-9d7a-3b8f1f6c2a10';
export const columns: RowColumn[] = [
  { name: 'name', type: 'VARCHAR' },
  { name: 'note', type: 'VARCHAR' },
  { name: 'amount', type: 'DOUBLE' },
  { name: 'count', type: 'BIGINT' },
  { name: 'day', type: 'DATE' },
  { name: 'at', type: 'TIMESTAMP' },
];
export const rows = [
  { name: 'Ada', note: 'plain', amount: 9.5, count: 3, day: '2024-01-15', at: '2024-01-15T12:34:56' },
  { name: '李雷', note: 'says "hi", then; leaves', amount: -1.25, count: null, day: null, at: null },
  { name: 'Ärger', note: 'two\nlines', amount: null, count: 9007199254740991, day: '1999-12-31', at: '2000-01-01T00:00:00' },
  { name: "O'Brien", note: '', amount: 0, count: 0, day: '2024-02-29', at: '2024-02-29T23:59:59' },
];

// The formulas table (../formula-cells) the sinks' tests read back.
export { formulaColumns, formulaRows };

export let people: DatasetMetadata;
export let formulas: DatasetMetadata;
export let empty: DatasetMetadata;
export let many: DatasetMetadata;

export const sink = (id: string) => getStepType(id)!.runner as SinkRunner;
export let runCount = 0;
/** A new context; pass `stepRunId` to make another attempt of the same step run. */
export const contextFor = (vars: Vars = {}, http: OutboundHttpClient = loopback, stepRunId?: string) =>
  sinkTestContext({ datasets, http, dir: path.join(dir, `run-${++runCount}`), scratchDir, vars, stepRunId });

export async function run(id: string, params: ParamValues, input: DatasetMetadata = people, vars: Vars = {}, http: OutboundHttpClient = loopback) {
  const test = contextFor(vars, http);
  const result = await sink(id).run(test.ctx, [input], params);
  return { ...test, result, text: () => fs.readFileSync(test.saved[0].path, 'utf8') };
}

export async function failure(promise: Promise<unknown>): Promise<DomainError | ValidationFailed> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError || err instanceof ValidationFailed) return err;
    throw err;
  }
  throw new Error('expected the step to fail');
}

export const messageOf = (err: DomainError) => translate('en', err.messageKey, err.values);

/** Sets up the sinks' testbed around a test file: the datasets, the HTTP server and clients, the input tables. */
export function useSinkTestbed(): void {
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
  beforeAll(async () => {
    people = await datasets.write({ ownerId: owner, name: 'People', source: { columns, batches: [rows] } });
    empty = await datasets.write({ ownerId: owner, name: 'Nobody', source: { columns, batches: [[]] } });
    formulas = await datasets.write({ ownerId: owner, name: 'Formulas', source: { columns: formulaColumns, batches: [formulaRows] } });
    many = await datasets.write({
      ownerId: owner,
      name: 'Many',
      source: { columns: [{ name: 'n', type: 'BIGINT' }], batches: [Array.from({ length: 250 }, (_, i) => ({ n: i + 1 }))] },
    });
  });
}
