import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadConfig } from '../server/src/config/config';
import type { FastifyInstance } from 'fastify';
import { generateCsv, uploadCounted, withApp, type Client } from './runs';

/**
 * Every import path against raw DuckDB (`npm run bench` with BENCH_IMPORTS=1, or `only`), issue
 * 12/13's aim: ≤ 1.5×. One file of ROWS orders (bench/runs.ts's CSV, and the same rows as Parquet
 * and as JSON Lines) imported by a one-step workflow, then its first page of records opened — the
 * time until a person sees the data: the run until it has ended and been read (the read counts a
 * deferred output's rows), then the first page (a deferred output's first pages come from its
 * recipe while its snapshot is written in the background). Raw DuckDB reads the file and writes
 * it as Parquet in one statement. SQLite, in-process worker, as `npm start` runs.
 */
const ROWS = Number(process.env.BENCH_IMPORTS_ROWS ?? 1_000_000);
const REPEAT = 2;

const log = (message: string) => process.stderr.write(`${message}\n`);
const q = (s: string) => `'${s.replaceAll("'", "''")}'`;

interface Path {
  label: string;
  step: 'import_csv' | 'import_file';
  file: string;
  read: (file: string) => string;
}

interface Figures {
  label: string;
  runMs: number;
  firstPageMs: number;
  rawMs: number;
}

async function timeImport(client: Client, app: FastifyInstance, p: Path, name: string): Promise<{ runMs: number; firstPageMs: number }> {
  const fileId = await client.upload(p.file, name);
  const wf = await client.workflow(`${p.label} ${name}`, [{ type: p.step, params: { file: fileId } }]);
  await uploadCounted(app);
  // Until the run has ended and been read once (that read counts a deferred output's rows).
  const started = performance.now();
  const { run } = await client.run(wf.id, wf.steps[0]);
  const ms = performance.now() - started;
  const start = performance.now();
  const page = await client.call<{ total: number }>('GET', `/datasets/${run.step_runs[0].output_dataset_id}/records?page=1&page_size=100`);
  const firstPageMs = performance.now() - start;
  if (page.total !== ROWS) throw new Error(`${p.label}: ${page.total} records, not ${ROWS}`);
  return { runMs: ms, firstPageMs };
}

export async function benchImports(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-imports-'));
  try {
    const csv = await generateCsv(dir, ROWS);
    const parquet = path.join(dir, `orders-${ROWS}.parquet`);
    const jsonl = path.join(dir, `orders-${ROWS}.jsonl`);
    const config = loadConfig({ DATA_DIR: dir });
    const instance = await DuckDBInstance.create(':memory:', {
      threads: String(config.datasets.duckdbThreads),
      memory_limit: config.datasets.duckdbMemoryLimit,
    });
    const connection = await instance.connect();
    const paths: Path[] = [
      { label: 'Import CSV, CSV', step: 'import_csv', file: csv, read: (f) => `read_csv(${q(f)})` },
      { label: 'Import file, CSV', step: 'import_file', file: csv, read: (f) => `read_csv(${q(f)})` },
      { label: 'Import file, Parquet', step: 'import_file', file: parquet, read: (f) => `read_parquet(${q(f)})` },
      { label: 'Import file, JSON Lines', step: 'import_file', file: jsonl, read: (f) => `read_json(${q(f)}, format = 'newline_delimited')` },
    ];
    const raw = new Map<string, number>();
    try {
      await connection.run(`COPY (SELECT * FROM read_csv(${q(csv)})) TO ${q(parquet)} (FORMAT parquet)`);
      await connection.run(`COPY (SELECT * FROM read_csv(${q(csv)})) TO ${q(jsonl)} (FORMAT json)`);
      // Raw DuckDB: read the file, write it as a ZSTD Parquet file, as a snapshot is written.
      for (const p of paths) {
        let best = Infinity;
        for (let r = 0; r < REPEAT; r++) {
          const out = path.join(dir, `raw-${r}.parquet`);
          const start = performance.now();
          await connection.run(`COPY (SELECT * FROM ${p.read(p.file)}) TO ${q(out)} (FORMAT parquet, COMPRESSION zstd)`);
          best = Math.min(best, performance.now() - start);
          fs.rmSync(out, { force: true });
        }
        raw.set(p.label, best);
        log(`  raw DuckDB, ${p.label}: ${Math.round(best)} ms`);
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    const figures = await withApp({ label: 'SQLite', databaseUrl: null, redisUrl: null }, async (client, _dataDir, app) => {
      const out: Figures[] = [];
      for (const p of paths) {
        let best = { runMs: Infinity, firstPageMs: Infinity };
        for (let r = 0; r < REPEAT; r++) {
          const took = await timeImport(client, app, p, `${r}-${path.basename(p.file)}`);
          log(`  ${p.label}: run ${Math.round(took.runMs)} ms, first page ${Math.round(took.firstPageMs)} ms`);
          if (took.runMs + took.firstPageMs < best.runMs + best.firstPageMs) best = took;
        }
        out.push({ label: p.label, ...best, rawMs: raw.get(p.label)! });
      }
      return out;
    });
    const cpus = os.cpus();
    const lines = [
      `Import paths, ${ROWS.toLocaleString('en')} rows (${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} at the end; best of ${REPEAT}):`,
      '',
      '| path | run s | first page s | run + first page s | raw DuckDB (read, write Parquet) s | ratio (aim ≤ 1.5×) |',
      '|---|---:|---:|---:|---:|---:|',
      ...figures.map((f) => {
        const total = f.runMs + f.firstPageMs;
        return `| ${f.label} | ${(f.runMs / 1000).toFixed(2)} | ${(f.firstPageMs / 1000).toFixed(2)} | ${(total / 1000).toFixed(2)} | ${(f.rawMs / 1000).toFixed(2)} | ${(total / f.rawMs).toFixed(1)}× |`;
      }),
    ];
    return lines.join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
