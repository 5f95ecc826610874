import path from 'node:path';
import type { DatasetsConfig } from '../../config/config';
import type { Log } from '../../lib/logger';
import type { Storage } from '../../storage/storage';
import { DatasetComparer, type CompareQuery, type DatasetComparison } from './compare';
import { DuckDBPool } from './duckdb-pool';
import { DatasetExporter, type ExportedFile, type ExportFormat } from './exporter';
import type { DatasetMetadata, DatasetRef } from './metadata';
import { ParquetFiles } from './parquet-files';
import { DatasetReader, type DatasetDescription, type RecordsPage } from './reader';
import type { JsonRecord } from './json-values';
import type { RecordsQuery } from './records-query';
import { DatasetWriter, type WriteDataset } from './writer';

export interface DatasetsOptions {
  storage: Storage;
  config: DatasetsConfig;
  log?: Log;
  /** Tests and the bench: see DatasetReaderOptions. */
  orderedCopyMinRows?: number;
  /** Tests: a DuckDB of their own making instead of one from `config`. */
  pool?: DuckDBPool;
}

/**
 * The dataset layer of one process: one DuckDB, one local file cache, a writer and a reader over
 * them. Nothing is opened until first used (DuckDB starts on the first query), so an API process
 * that never touches a dataset pays nothing. `close()` on shutdown.
 */
export class Datasets {
  readonly pool: DuckDBPool;
  readonly files: ParquetFiles;
  readonly reader: DatasetReader;
  readonly writer: DatasetWriter;
  readonly exporter: DatasetExporter;
  readonly comparer: DatasetComparer;

  constructor(options: DatasetsOptions) {
    const { storage, config, log } = options;
    const writeDir = path.join(config.tempDir, 'datasets');
    // SQL may touch only our own files: snapshots (local storage), the cache, temporaries.
    const allowed = [config.cacheDir, writeDir, ...(storage.localPath ? [storage.localPath('datasets')] : [])];
    this.pool =
      options.pool ??
      new DuckDBPool({ memoryLimit: config.duckdbMemoryLimit, threads: config.duckdbThreads, tempDirectory: path.join(config.tempDir, 'duckdb'), allowedDirectories: allowed });
    this.files = new ParquetFiles({ storage, cacheDir: config.cacheDir, maxBytes: config.cacheMaxBytes, log });
    this.reader = new DatasetReader(this.pool, this.files, { orderedCopyMinRows: options.orderedCopyMinRows, log });
    this.writer = new DatasetWriter(this.pool, this.files, storage, { tempDir: writeDir });
    this.exporter = new DatasetExporter(this.pool, this.files, { tempDir: writeDir });
    this.comparer = new DatasetComparer(this.pool, this.files);
  }

  write(request: WriteDataset): Promise<DatasetMetadata> {
    return this.writer.write(request);
  }

  describe(ref: DatasetRef): Promise<DatasetDescription> {
    return this.reader.describe(ref);
  }

  records(ref: DatasetRef, query: RecordsQuery): Promise<RecordsPage> {
    return this.reader.records(ref, query);
  }

  record(ref: DatasetRef, recordId: string): Promise<JsonRecord> {
    return this.reader.record(ref, recordId);
  }

  /** The whole dataset as a local file to stream; the caller must call `done()` once sent. */
  export(ref: DatasetRef, format: ExportFormat): Promise<ExportedFile> {
    return this.exporter.export(ref, format);
  }

  /** What changed from `before` to `after`, record by record by `query.key`. Throws InvalidRecordsQuery. */
  compare(before: DatasetRef, after: DatasetRef, query: CompareQuery): Promise<DatasetComparison> {
    return this.comparer.compare(before, after, query);
  }

  /** On shutdown: an ordered copy being built is abandoned (it is only a cache), then DuckDB closes. */
  async close(): Promise<void> {
    this.reader.stopCopies();
    await this.pool.close();
    await this.reader.idle();
  }
}
