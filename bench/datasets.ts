import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/src/config/config';
import { createStorage } from '../server/src/storage';
import { Datasets, type DatasetMetadata, type RecordsQuery } from '../server/src/engine/datasets';

/**
 * The dataset scenario of `npm run bench` (BENCH_DATASETS=1, or `only` for it alone): a snapshot
 * of BENCH_DATASET_ROWS rows (1M) made with DuckDB and written through the real writer to local
 * storage, then records pages read through the real reader, one request at a time, each timed
 * from the call to the JSON-ready answer. No HTTP: this is the engine's share of a records
 * request (the route adds its own, measured by the HTTP cases).
 */
const ROWS = Number(process.env.BENCH_DATASET_ROWS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_DATASET_REQUESTS ?? 300);
const PAGE_SIZE = 50;

const log = (message: string) => process.stderr.write(`${message}\n`);

interface Case {
  name: string;
  /** The query of the i-th request (pages vary, so no answer repeats a cached one). */
  query: (i: number, random: () => number) => RecordsQuery;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A fixed-seed generator, so two runs ask for the same pages. */
function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function time(label: string, requests: number, call: (i: number) => Promise<unknown>) {
  // Warm-up: the JIT, DuckDB's caches of the footer and of the file's pages.
  for (let i = 0; i < Math.min(20, requests); i++) await call(requests + i);
  const took: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    await call(i);
    took.push(performance.now() - start);
  }
  took.sort((a, b) => a - b);
  log(`  ${label}: p50 ${percentile(took, 50).toFixed(1)} ms, p99 ${percentile(took, 99).toFixed(1)} ms`);
  return { label, p50: percentile(took, 50), p99: percentile(took, 99), max: took[took.length - 1] };
}

export async function benchDatasets(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-datasets-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  const { storage } = createStorage(config);
  const datasets = new Datasets({ storage, config: config.datasets });
  const out: string[] = [];
  try {
    log(`datasets: writing a ${ROWS.toLocaleString('en')}-row snapshot`);
    const writeStart = performance.now();
    const meta: DatasetMetadata = await datasets.write({
      ownerId: 'bench',
      name: 'Bench',
      source: {
        sql: () => `
          SELECT i AS n,
                 'customer ' || i AS name,
                 CASE WHEN i % 10 = 0 THEN NULL ELSE 'city ' || (hash(i) % 50) END AS city,
                 (hash(i * 31) % 1000000) / 100.0 AS score,
                 ((hash(i * 17) % 10000000) / 100)::DECIMAL(12,2) AS amount,
                 DATE '2020-01-01' + (i % 1500)::INTEGER AS created,
                 i % 3 = 0 AS active,
                 'A note of some length about record number ' || i AS note
          FROM range(${ROWS}) t(i)`,
      },
    });
    const writeSeconds = (performance.now() - writeStart) / 1000;
    log(`  wrote ${meta.rowCount} rows, ${(meta.bytes / 2 ** 20).toFixed(1)} MiB, in ${writeSeconds.toFixed(1)} s`);

    const pages = Math.ceil(ROWS / PAGE_SIZE);
    const sort: RecordsQuery['sort'] = [{ column: 'score', direction: 'desc' }];
    const oneCity: RecordsQuery['filters'] = [{ column: 'city', op: '=', value: 'city 7' }];
    const cityTotal = (await datasets.records(meta, { filters: oneCity, pageSize: 1 })).total;
    // The first request of each filter finds its matches; the cases below page through them.
    const searchTotal = (await datasets.records(meta, { filters: [{ column: 'name', op: 'contains', value: '99' }], pageSize: 1 })).total;
    const wordStart = performance.now();
    const wordTotal = (await datasets.records(meta, { filters: [{ column: 'name', op: 'contains', value: 'Mer 12' }], pageSize: 1 })).total;
    const firstSearch = performance.now() - wordStart;

    log('datasets: the first sorted request, then the ordered copy it starts');
    const coldStart = performance.now();
    await datasets.records(meta, { sort, pageSize: PAGE_SIZE });
    const coldSorted = performance.now() - coldStart;
    const copyStart = performance.now();
    await datasets.reader.idle();
    const copySeconds = (performance.now() - copyStart) / 1000;

    const random = seeded(42);
    const page = (max: number) => 1 + Math.floor(random() * max);
    const cases: Case[] = [
      { name: 'first page', query: () => ({ page: 1, pageSize: PAGE_SIZE }) },
      { name: `a random page of all ${pages.toLocaleString('en')}`, query: () => ({ page: page(pages), pageSize: PAGE_SIZE }) },
      { name: 'sorted by a number (desc), first page', query: () => ({ sort, page: 1, pageSize: PAGE_SIZE }) },
      { name: 'sorted by a number (desc), a random page', query: () => ({ sort, page: page(pages), pageSize: PAGE_SIZE }) },
      {
        name: `filtered, city = one of 50 (${cityTotal.toLocaleString('en')} rows), a random page`,
        query: () => ({ filters: oneCity, page: page(Math.ceil(cityTotal / PAGE_SIZE)), pageSize: PAGE_SIZE }),
      },
      {
        name: `filtered, name contains "99" (${searchTotal.toLocaleString('en')} rows), a random page`,
        query: () => ({ filters: [{ column: 'name', op: 'contains', value: '99' }], page: page(Math.ceil(searchTotal / PAGE_SIZE)), pageSize: PAGE_SIZE }),
      },
      {
        name: `filtered, name contains "Mer 12" (any case; ${wordTotal.toLocaleString('en')} rows), a random page`,
        query: () => ({ filters: [{ column: 'name', op: 'contains', value: 'Mer 12' }], page: page(Math.ceil(wordTotal / PAGE_SIZE)), pageSize: PAGE_SIZE }),
      },
      {
        name: 'filtered, score > a new value each time (total counted every time), first page',
        query: () => ({ filters: [{ column: 'score', op: '>', value: Math.round(random() * 1_000_000) / 100 }], pageSize: PAGE_SIZE }),
      },
      {
        name: 'filtered and sorted (ordered copy), a random page',
        query: () => ({ filters: oneCity, sort, page: page(Math.ceil(cityTotal / PAGE_SIZE)), pageSize: PAGE_SIZE }),
      },
    ];
    const results = [];
    log(`datasets: ${REQUESTS} requests per case, one at a time, ${PAGE_SIZE} records a page`);
    for (const c of cases) results.push(await time(c.name, REQUESTS, (i) => datasets.records(meta, c.query(i, random))));
    results.push(
      await time('one record by `_id`', REQUESTS, () =>
        datasets.record(
          meta,
          `${meta.id.slice(0, 24)}${Math.floor(random() * ROWS)
            .toString(16)
            .padStart(12, '0')}`,
        ),
      ),
    );

    const cpus = os.cpus();
    out.push(
      `Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} at the end.`,
    );
    out.push(
      `Snapshot: ${meta.rowCount.toLocaleString('en')} rows × ${meta.columns.length} columns, ${(meta.bytes / 2 ** 20).toFixed(1)} MiB of ZSTD Parquet, written in ${writeSeconds.toFixed(1)} s; DuckDB ${config.datasets.duckdbThreads} threads.`,
    );
    out.push(`First sorted request (no ordered copy yet): ${Math.round(coldSorted)} ms; building the ordered copy: ${copySeconds.toFixed(1)} s.`);
    out.push(
      `First request of the filter name contains "Mer 12" (finds and keeps its ${wordTotal.toLocaleString('en')} matches): ${Math.round(firstSearch)} ms.`,
    );
    out.push('');
    out.push(`| records page (${PAGE_SIZE} records), ${REQUESTS} requests one at a time | p50 ms | p99 ms | max ms |`);
    out.push('|---|---:|---:|---:|');
    for (const r of results) out.push(`| ${r.label} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} |`);
    return out.join('\n');
  } finally {
    await datasets.close();
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
