import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitUntil } from '../../test/wait';
import { DuckDBPool } from './duckdb-pool';

let dir: string;
beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-duckdb-'))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const newPool = (maxConnections = 4) =>
  new DuckDBPool({ memoryLimit: '256MB', threads: 2, tempDirectory: path.join(dir, 'spill'), allowedDirectories: [path.join(dir, 'data')], maxConnections });

const value = async (pool: DuckDBPool, sql: string) => pool.use(async (c) => (await c.runAndReadAll(sql)).getRowsJson()[0][0]);

it('opens one DuckDB with the configured threads, memory and UTC, and nobody can change them', async () => {
  const pool = newPool();
  try {
    expect(await value(pool, `SELECT current_setting('threads')`)).toBe('2');
    expect(await value(pool, `SELECT current_setting('memory_limit')`)).toBe('244.1 MiB');
    // On every connection, not only the one that set it up.
    for (let i = 0; i < 3; i++) expect(await value(pool, `SELECT current_setting('TimeZone')`)).toBe('UTC');
    await expect(value(pool, `SET TimeZone = 'Asia/Shanghai'`)).rejects.toThrow(/locked/);
    expect(await value(pool, `SELECT current_setting('temp_directory')`)).toBe(path.join(dir, 'spill'));
    await expect(value(pool, `SET memory_limit = '10GB'`)).rejects.toThrow(/locked/);
    await expect(value(pool, `SET enable_external_access = true`)).rejects.toThrow(/locked/);
  } finally {
    await pool.close();
  }
});

it('reads and writes files only in its allowed folders, and downloads no extension', async () => {
  const pool = newPool();
  try {
    const inside = path.join(dir, 'data', 'ok.parquet');
    await pool.use((c) => c.run(`COPY (SELECT 1 AS a) TO '${inside}' (FORMAT parquet)`));
    expect(await value(pool, `SELECT a FROM read_parquet('${inside}')`)).toBe(1);
    await expect(value(pool, `SELECT * FROM read_csv('/etc/passwd')`)).rejects.toThrow(/Permission Error/);
    await expect(value(pool, `SELECT * FROM read_parquet('${path.join(dir, 'data', '..', 'elsewhere.parquet')}')`)).rejects.toThrow(/Permission Error/);
    await expect(pool.use((c) => c.run(`COPY (SELECT 1) TO '${path.join(dir, 'escape.csv')}'`))).rejects.toThrow(/Permission Error/);
    await expect(pool.use((c) => c.run('INSTALL httpfs'))).rejects.toThrow();
  } finally {
    await pool.close();
  }
});

it('gives each concurrent use a connection of its own, up to the limit, then queues', async () => {
  const pool = newPool(2);
  try {
    const events: string[] = [];
    let releaseFirst!: () => void;
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const first = pool.use(async (c) => {
      events.push('first');
      // A temporary table is private to its connection: the second use must not see it.
      await c.run('CREATE TEMP TABLE mine AS SELECT 1 AS x');
      firstStarted();
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      events.push('first done');
    });
    // Waited for, not slept on: opening DuckDB on a busy machine takes longer than any fixed pause.
    await started;
    const second = pool.use(async (c) => {
      events.push('second');
      await expect(c.run('SELECT * FROM mine')).rejects.toThrow(/mine/);
    });
    await second;
    // First still holds its connection, second returned hers: third gets it and finishes without
    // waiting for first (were it queued behind first, this would never settle and the test time out).
    await pool.use(async () => void events.push('third'));
    expect(events).toEqual(['first', 'second', 'third']);
    releaseFirst();
    await first;
  } finally {
    await pool.close();
  }
});

it('waits for a connection when all are busy, and refuses uses after close', async () => {
  const pool = newPool(1);
  const order: number[] = [];
  let unblock!: () => void;
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const blocker = pool.use(() => {
    holding();
    return new Promise<void>((resolve) => (unblock = resolve)).then(() => void order.push(1));
  });
  await held;
  const waiting = pool.use(async (c) => {
    order.push(2);
    return (await c.runAndReadAll('SELECT 42')).getRowsJson()[0][0];
  });
  await waitUntil('the second use to wait for the one connection', () => pool.queued === 1);
  expect(order).toEqual([]);
  unblock();
  expect(await waiting).toBe(42);
  await blocker;
  expect(order).toEqual([1, 2]);
  await pool.close();
  await expect(value(pool, 'SELECT 1')).rejects.toThrow(/closed/);
});
