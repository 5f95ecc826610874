import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './sql';

export interface DuckDBPoolOptions {
  /** `1GB`, `512MB`: above it DuckDB spills to `tempDirectory` instead of failing. */
  memoryLimit: string;
  /** DuckDB's worker threads, shared by every query of the process. */
  threads: number;
  /** Where DuckDB spills big sorts and joins; made if missing. */
  tempDirectory: string;
  /**
   * The only folders SQL may read or write (Parquet snapshots, the cache, temporary files).
   * Everything else on the machine is refused, whatever the SQL says.
   */
  allowedDirectories: string[];
  /** Connections open at once; further uses wait for one. */
  maxConnections?: number;
}

/**
 * One in-memory DuckDB per process, opened on first use, with a connection per concurrent use.
 *
 * Why one instance: DuckDB's threads and memory limit belong to the instance, so one instance
 * keeps the whole process within DUCKDB_THREADS and DUCKDB_MEMORY_LIMIT however many requests read
 * datasets at once. Why a connection per use: a connection runs one statement at a time, and
 * temporary tables (the writer's staging table) are private to it; idle connections are kept for
 * the next use, since opening one costs a little.
 *
 * The instance is locked down once set up, because steps will hand it SQL: no file outside
 * `allowedDirectories`, no extension downloads (none are needed: parquet, json and icu are built in),
 * and no `SET` that could undo either (`lock_configuration`).
 */
export class DuckDBPool {
  private instance: Promise<DuckDBInstance> | null = null;
  private readonly idle: DuckDBConnection[] = [];
  private readonly active = new Set<DuckDBConnection>();
  private readonly waiting: { resolve: (connection: DuckDBConnection) => void; reject: (err: Error) => void }[] = [];
  private opening = 0;
  private closed = false;
  private readonly maxConnections: number;

  constructor(private readonly options: DuckDBPoolOptions) {
    this.maxConnections = Math.max(1, options.maxConnections ?? 16);
  }

  /** Runs `work` on a connection of its own, then gives the connection back for the next use. */
  async use<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.acquire();
    try {
      return await work(connection);
    } finally {
      this.release(connection);
    }
  }

  /** Uses waiting for a connection because all `maxConnections` are busy: how contended the pool is. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Closes every connection and the instance; uses still running are interrupted. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('DuckDB is closed'));
    for (const connection of this.active) connection.interrupt();
    // Interrupted statements end at their next check; let them hand their connections back.
    for (let i = 0; i < 200 && (this.active.size || this.opening); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    for (const connection of this.idle.splice(0)) connection.closeSync();
    if (this.instance) (await this.instance.catch(() => null))?.closeSync();
  }

  private async acquire(): Promise<DuckDBConnection> {
    if (this.closed) throw new Error('DuckDB is closed');
    const ready = this.idle.pop();
    if (ready) {
      this.active.add(ready);
      return ready;
    }
    if (this.active.size + this.opening < this.maxConnections) {
      this.opening++;
      try {
        const connection = await (await this.open()).connect();
        this.active.add(connection);
        return connection;
      } finally {
        this.opening--;
      }
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private release(connection: DuckDBConnection) {
    this.active.delete(connection);
    if (this.closed) {
      connection.closeSync();
      return;
    }
    const next = this.waiting.shift();
    if (next) {
      this.active.add(connection);
      next.resolve(connection);
    } else {
      this.idle.push(connection);
    }
  }

  private open(): Promise<DuckDBInstance> {
    this.instance ??= this.create();
    // A failed start (a bad memory limit) is reported to every use, then tried again on the next.
    this.instance.catch(() => (this.instance = null));
    return this.instance;
  }

  private async create(): Promise<DuckDBInstance> {
    const { memoryLimit, threads, tempDirectory, allowedDirectories } = this.options;
    for (const dir of [tempDirectory, ...allowedDirectories]) fs.mkdirSync(dir, { recursive: true });
    const instance = await DuckDBInstance.create(':memory:', {
      memory_limit: memoryLimit,
      threads: String(threads),
      temp_directory: tempDirectory,
      // Results without ORDER BY come in file order: the records API pages in that order.
      preserve_insertion_order: 'true',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      allow_community_extensions: 'false',
    });
    const setup = await instance.connect();
    try {
      // Settings of built-in extensions exist only once the instance is up, so they are SET here,
      // GLOBAL so that every connection has them (a plain SET of TimeZone is the session's only).
      // TIMESTAMPTZ values and filters are read and written in UTC, whatever the machine's zone.
      await setup.run(`SET GLOBAL TimeZone = 'UTC'`);
      // Snapshots never change, so their footers can be kept between queries.
      await setup.run('SET GLOBAL parquet_metadata_cache = true');
      // Memory a query freed goes back to the system soon after, instead of staying in the
      // allocator's per-thread caches (128 MiB each by default) and arenas: a server that wrote a
      // 1M-row snapshot rested ~170 MiB higher for good without it (docs/benchmarks.md, "Memory").
      await setup.run(`SET GLOBAL allocator_flush_threshold = '16MB'`);
      await setup.run('SET GLOBAL allocator_background_threads = true');
      const dirs = [tempDirectory, ...allowedDirectories].map((dir) => sqlString(path.resolve(dir) + path.sep));
      await setup.run(`SET GLOBAL allowed_directories = [${dirs.join(', ')}]`);
      await setup.run('SET GLOBAL enable_external_access = false');
      await setup.run('SET GLOBAL lock_configuration = true');
    } catch (err) {
      setup.closeSync();
      instance.closeSync();
      throw err;
    }
    setup.closeSync();
    return instance;
  }
}
