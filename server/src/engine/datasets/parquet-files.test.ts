import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '../../config/config';
import { createStorage, type ByteRange, type Storage } from '../../storage';
import { startS3Server, type TestS3 } from '../../test/s3-server';
import { waitUntil } from '../../test/wait';
import { Datasets, DatasetNotFound, ParquetFiles } from '.';

// The cache in front of S3, against a real S3-compatible server (s3rver) through the real S3
// storage; only `get` is wrapped, to count downloads and to make one fail halfway.

let s3: TestS3;
let dir: string;
let storage: Storage;
let gets: string[];
let failNext = false;

beforeAll(async () => {
  s3 = await startS3Server();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-parquet-files-'));
  const real = createStorage(loadConfig({ DATA_DIR: dir, ...s3.env })).storage;
  storage = Object.assign(Object.create(real) as Storage, {
    async get(key: string, range?: ByteRange) {
      gets.push(key);
      const body = await real.get(key, range);
      if (!failNext) return body;
      failNext = false;
      // Half the bytes, then the connection drops.
      const bytes: Buffer[] = [];
      for await (const chunk of body) bytes.push(chunk as Buffer);
      const all = Buffer.concat(bytes);
      return new Readable({
        read() {
          this.push(all.subarray(0, all.length >> 1));
          this.destroy(new Error('connection reset'));
        },
      });
    },
  });
});
beforeEach(() => (gets = []));
afterAll(async () => {
  await storage.close();
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const put = (key: string, bytes: number) => storage.put(key, Readable.from([Buffer.alloc(bytes, key.length)]));
const cacheFiles = (cacheDir: string) => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).sort() : []);

describe('ParquetFiles on S3', () => {
  it('downloads a snapshot once however many ask at the same moment', async () => {
    await put('datasets/u/a.parquet', 50_000);
    const files = new ParquetFiles({ storage, cacheDir: path.join(dir, 'c1'), maxBytes: 10_000_000 });
    const leases = await Promise.all(Array.from({ length: 8 }, () => files.open('datasets/u/a.parquet')));
    expect(gets).toEqual(['datasets/u/a.parquet']);
    expect(new Set(leases.map((l) => l.path)).size).toBe(1);
    expect(fs.statSync(leases[0].path).size).toBe(50_000);
    leases.forEach((l) => l.release());
    const again = await files.open('datasets/u/a.parquet');
    again.release();
    expect(gets).toHaveLength(1);
  });

  it('evicts the least recently used files beyond its budget, never one still held', async () => {
    for (const name of ['x', 'y', 'z']) await put(`datasets/u/${name}.parquet`, 40_000);
    const cacheDir = path.join(dir, 'c2');
    const files = new ParquetFiles({ storage, cacheDir, maxBytes: 100_000 });
    const x = await files.open('datasets/u/x.parquet');
    (await files.open('datasets/u/y.parquet')).release();
    // x is held (a query reads it), so z's arrival evicts y, the oldest free file, though x is older.
    const z = await files.open('datasets/u/z.parquet');
    expect(fs.existsSync(x.path)).toBe(true);
    expect(files.usage()).toEqual({ files: 2, bytes: 80_000 });
    // Evicted files are removed in the background (an unlink can take a while on a big file).
    await waitUntil('the evicted file to be removed', () => cacheFiles(cacheDir).length === 2);
    x.release();
    z.release();
    // y comes back (downloaded again) and x, now the least recently used, makes room.
    (await files.open('datasets/u/y.parquet')).release();
    expect(gets.filter((k) => k.endsWith('y.parquet'))).toHaveLength(2);
    await waitUntil('x to be removed', () => !fs.existsSync(x.path));
    expect(files.usage().bytes).toBeLessThanOrEqual(100_000);
  });

  it('leaves nothing behind when a download breaks halfway, and the next open tries again', async () => {
    await put('datasets/u/flaky.parquet', 30_000);
    const cacheDir = path.join(dir, 'c3');
    const files = new ParquetFiles({ storage, cacheDir, maxBytes: 10_000_000 });
    failNext = true;
    await expect(files.open('datasets/u/flaky.parquet')).rejects.toThrow('connection reset');
    expect(cacheFiles(cacheDir)).toEqual([]);
    const lease = await files.open('datasets/u/flaky.parquet');
    expect(fs.statSync(lease.path).size).toBe(30_000);
    lease.release();
  });

  it('says a missing snapshot is not found', async () => {
    const files = new ParquetFiles({ storage, cacheDir: path.join(dir, 'c4'), maxBytes: 10_000_000 });
    await expect(files.open('datasets/u/missing.parquet')).rejects.toBeInstanceOf(DatasetNotFound);
  });

  it('keeps its files over a restart and drops what a crash left half-written', async () => {
    await put('datasets/u/kept.parquet', 10_000);
    const cacheDir = path.join(dir, 'c5');
    (await new ParquetFiles({ storage, cacheDir, maxBytes: 10_000_000 }).open('datasets/u/kept.parquet')).release();
    fs.writeFileSync(path.join(cacheDir, 'o-whatever.parquet.1234.partial'), 'half');
    const restarted = new ParquetFiles({ storage, cacheDir, maxBytes: 10_000_000 });
    (await restarted.open('datasets/u/kept.parquet')).release();
    expect(gets).toEqual(['datasets/u/kept.parquet']);
    expect(restarted.usage()).toEqual({ files: 1, bytes: 10_000 });
    expect(cacheFiles(cacheDir).some((name) => name.endsWith('.partial'))).toBe(false);
  });
});

describe('datasets on S3', () => {
  it('a process reads what it wrote without downloading it; another downloads it once', async () => {
    const config = loadConfig({ DATA_DIR: path.join(dir, 'writer'), DUCKDB_THREADS: '2', DUCKDB_MEMORY_LIMIT: '256MB', ...s3.env });
    const writer = new Datasets({ storage, config: config.datasets });
    const other = new Datasets({ storage, config: loadConfig({ DATA_DIR: path.join(dir, 'reader'), DUCKDB_THREADS: '2', ...s3.env }).datasets });
    try {
      const meta = await writer.write({ ownerId: 'u1', name: 'On S3', source: { sql: () => `SELECT i AS n, 'row ' || i AS label FROM range(2000) t(i)` } });
      expect(await storage.head(meta.storageKey)).toMatchObject({ size: meta.bytes });
      expect((await writer.records(meta, { page: 3, pageSize: 10 })).items.map((r) => r.n)).toEqual(Array.from({ length: 10 }, (_, i) => 20 + i));
      expect(gets).toEqual([]);

      const answers = await Promise.all([
        other.describe(meta),
        other.records(meta, { filters: [{ column: 'label', op: '=', value: 'row 1999' }] }),
        other.record(meta, `${meta.id.slice(0, 24)}000000000007`),
      ]);
      expect(answers[0]).toEqual({ columns: meta.columns, rowCount: 2000, bytes: meta.bytes });
      expect(answers[1].items).toMatchObject([{ n: 1999 }]);
      expect(answers[2]).toMatchObject({ n: 7, label: 'row 7' });
      expect(gets).toEqual([meta.storageKey]);
    } finally {
      await writer.close();
      await other.close();
    }
  });
});
