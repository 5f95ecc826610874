import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { ObjectNotFoundError, type Storage } from '../../storage/storage';
import { writeNewFile } from '../../storage/write-new-file';
import type { Log } from '../../lib/logger';
import { DatasetNotFound } from './errors';

/** A local Parquet file, kept on disk (not evicted) until released. */
export interface LocalFile {
  readonly path: string;
  release(): void;
}

export interface ParquetFilesOptions {
  storage: Storage;
  /** Folder of the cache: downloads from S3 and derived files (ordered copies). */
  cacheDir: string;
  /** Bytes of cached files to keep; the least recently used unheld ones go beyond it. */
  maxBytes: number;
  log?: Log;
}

interface Entry {
  file: string;
  bytes: number;
  /** Leases not yet released: a held file is never evicted, even over the budget. */
  holds: number;
}

const PARTIAL = '.partial';
const cacheName = /^[od]-[0-9a-f]{64}\.parquet$/;
const hashed = (prefix: 'o' | 'd', key: string) => `${prefix}-${createHash('sha256').update(key).digest('hex')}.parquet`;

/**
 * Turns dataset snapshots into local files DuckDB can open.
 *
 * Local storage: the snapshot is already a file (`storage.localPath`), read in place. S3: DuckDB
 * here has no httpfs (and locked-down servers cannot download it), so the object is downloaded
 * into a cache folder: once, however many requests ask at the same moment; to a temporary file
 * renamed into place, so a half-downloaded file is never read; evicted least-recently-used first
 * when the cache holds more than `maxBytes`, but never while a query holds it. Snapshots are
 * immutable, so a cached copy never goes stale.
 *
 * Derived files (ordered copies of a snapshot, see reader.ts) live in the same cache under the same
 * budget, whatever the backend.
 *
 * The cache's index is in memory and rebuilt from the folder at start (oldest first), so a restart
 * keeps what was downloaded. One process per cache folder: two processes sharing one would evict
 * each other's files (give each its own DATASET_CACHE_DIR).
 */
export class ParquetFiles {
  /** In least-recently-used order: the first entries are evicted first. */
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<void>>();
  private bytes = 0;
  private ready: Promise<void> | null = null;

  /**
   * Called when a snapshot is not stored: answers true when it was a deferred dataset's and has now
   * been written (see recipe.ts), so opening it is tried once more. Set by whoever knows the
   * datasets' rows (the app and the worker); without it a missing file is DatasetNotFound.
   */
  materializer: ((storageKey: string) => Promise<boolean>) | null = null;

  /** Snapshots being written in the background (materializeSoon), until they are stored or fail. */
  private readonly background = new Set<Promise<unknown>>();

  constructor(private readonly options: ParquetFilesOptions) {}

  /**
   * Starts writing a deferred dataset's snapshot without waiting for it (a first page was answered
   * from its recipe meanwhile); a failure is only logged, the next open tries again.
   */
  materializeSoon(storageKey: string): void {
    if (!this.materializer) return;
    const pending = this.materializer(storageKey)
      .catch((err: unknown) => this.options.log?.warn({ err, storageKey }, 'could not write a deferred dataset in the background'))
      .finally(() => this.background.delete(pending));
    this.background.add(pending);
  }

  /** Resolves once every snapshot started by materializeSoon so far is written (or failed): tests, shutdown. */
  async settled(): Promise<void> {
    while (this.background.size) await Promise.all([...this.background]);
  }

  /** The snapshot stored at `storageKey` as a local file (a deferred one is materialized first). Throws DatasetNotFound. */
  async open(storageKey: string): Promise<LocalFile> {
    try {
      return await this.openStored(storageKey);
    } catch (err) {
      if (!(err instanceof DatasetNotFound) || !this.materializer || !(await this.materializer(storageKey))) throw err;
      return this.openStored(storageKey);
    }
  }

  private async openStored(storageKey: string): Promise<LocalFile> {
    const { storage } = this.options;
    if (storage.localPath) {
      const file = storage.localPath(storageKey);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat?.isFile()) throw new DatasetNotFound(storageKey);
      return { path: file, release: () => undefined };
    }
    return this.obtain(hashed('o', storageKey), (target) => this.download(storageKey, target));
  }

  /**
   * A file derived from snapshots, named by `name` (which must say everything it depends on): built
   * by `build` into the path it is given the first time, then taken from the cache.
   */
  derived(name: string, build: (target: string) => Promise<void>): Promise<LocalFile> {
    return this.obtain(hashed('d', name), build);
  }

  /** The derived file when it is already built; null otherwise (nothing is built). */
  peekDerived(name: string): LocalFile | null {
    const entry = this.entries.get(hashed('d', name));
    return entry ? this.hold(hashed('d', name), entry) : null;
  }

  /**
   * Takes a snapshot this process has just written and stored under `storageKey` into the cache (by
   * moving `file`), so reading it next costs no download. Answers false with local storage, where
   * the stored file is read in place and `file` is the caller's to remove.
   */
  async adopt(storageKey: string, file: string): Promise<boolean> {
    if (this.options.storage.localPath) return false;
    await this.start();
    const name = hashed('o', storageKey);
    if (this.entries.has(name) || this.building.has(name)) {
      await fs.promises.rm(file, { force: true });
      return true;
    }
    const target = path.join(this.options.cacheDir, name);
    await moveFile(file, target);
    this.add(name, target, (await fs.promises.stat(target)).size, 0);
    this.evict();
    return true;
  }

  /** What the cache holds now. */
  usage(): { files: number; bytes: number } {
    return { files: this.entries.size, bytes: this.bytes };
  }

  private async obtain(name: string, build: (target: string) => Promise<void>): Promise<LocalFile> {
    await this.start();
    for (;;) {
      const entry = this.entries.get(name);
      if (entry) return this.hold(name, entry);
      const pending = this.building.get(name);
      if (pending) {
        // Someone is already fetching it: wait for them (their failure is ours too), then look again.
        await pending;
        continue;
      }
      let lease: LocalFile | null = null;
      const work = (async () => {
        const target = path.join(this.options.cacheDir, name);
        const temp = `${target}.${randomUUID()}${PARTIAL}`;
        try {
          await build(temp);
          await fs.promises.rename(temp, target);
        } catch (err) {
          await fs.promises.rm(temp, { force: true });
          throw err;
        }
        // Held for the builder before anything is evicted, so a file bigger than the whole
        // budget still reaches the one who asked for it.
        lease = this.hold(name, this.add(name, target, (await fs.promises.stat(target)).size, 0));
        this.evict();
      })();
      this.building.set(name, work);
      try {
        await work;
      } finally {
        this.building.delete(name);
      }
      return lease!;
    }
  }

  private hold(name: string, entry: Entry): LocalFile {
    entry.holds++;
    // Most recently used goes to the end of the eviction order.
    this.entries.delete(name);
    this.entries.set(name, entry);
    let released = false;
    return {
      path: entry.file,
      release: () => {
        if (released) return;
        released = true;
        entry.holds--;
        this.evict();
      },
    };
  }

  private add(name: string, file: string, bytes: number, holds: number): Entry {
    const entry: Entry = { file, bytes, holds };
    this.entries.set(name, entry);
    this.bytes += bytes;
    return entry;
  }

  private evict() {
    if (this.bytes <= this.options.maxBytes) return;
    for (const [name, entry] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      if (entry.holds > 0) continue;
      this.entries.delete(name);
      this.bytes -= entry.bytes;
      fs.promises
        .rm(entry.file, { force: true })
        .catch((err: unknown) => this.options.log?.warn({ err, file: entry.file }, 'could not remove a cached dataset file'));
    }
  }

  private async download(storageKey: string, target: string): Promise<void> {
    const body = await this.options.storage.get(storageKey).catch((err: unknown) => {
      throw err instanceof ObjectNotFoundError ? new DatasetNotFound(storageKey) : err;
    });
    await writeNewFile(target, body);
  }

  /** Once: makes the folder, drops what a crash left half-written, and indexes what is there. */
  private start(): Promise<void> {
    this.ready ??= (async () => {
      const dir = this.options.cacheDir;
      await fs.promises.mkdir(dir, { recursive: true });
      const found: { name: string; file: string; bytes: number; used: number }[] = [];
      for (const name of await fs.promises.readdir(dir)) {
        const file = path.join(dir, name);
        if (name.endsWith(PARTIAL)) await fs.promises.rm(file, { force: true });
        else if (cacheName.test(name)) {
          const stat = await fs.promises.stat(file);
          found.push({ name, file, bytes: stat.size, used: stat.mtimeMs });
        }
      }
      for (const f of found.sort((a, b) => a.used - b.used)) this.add(f.name, f.file, f.bytes, 0);
      this.evict();
    })();
    return this.ready;
  }
}

/** A rename, or a copy when the two folders are on different file systems. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await fs.promises.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    const temp = `${to}.${randomUUID()}${PARTIAL}`;
    await fs.promises.copyFile(from, temp);
    await fs.promises.rename(temp, to);
    await fs.promises.rm(from, { force: true });
  }
}
