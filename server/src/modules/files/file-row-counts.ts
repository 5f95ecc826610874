import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/database';
import type { DuckDBPool } from '../../engine/datasets';
import { countFileRows, COUNTABLE_FORMATS, ROW_COUNT_MAX_BYTES } from '../../engine/sources/file-row-count';
import { formatOf, type FileFormat } from '../../engine/sources/file-formats';
import type { JobQueue } from '../../jobs/queue';
import type { Log } from '../../lib/logger';
import type { Storage } from '../../storage';
import { FilesRepository, type FileRow } from './files.repository';

/** The queued job that counts a file's records after its upload (registered in jobs/handlers.ts). */
export const COUNT_FILE_ROWS_JOB = 'count-file-rows';
export interface CountFileRowsJob {
  ownerId: string;
  fileId: string;
}

/** A file's records, read as `format` (the format its name's ending tells). */
export interface KnownRowCount {
  rows: number;
  format: FileFormat;
}

/**
 * Record counts of data files before their first run (decision 0066): counted once per file, after
 * its upload (a queued job, off the upload's response) or the first time a cost estimate asks,
 * whichever comes first, and kept on the file's row (migration 017). A file's bytes never change,
 * so neither does its count. What cannot be counted cheaply (Excel, over ROW_COUNT_MAX_BYTES, not
 * well-formed, over the time bound) is marked unknown and not tried again.
 */
export class FileRowCounts {
  private readonly files: FilesRepository;
  /** Counts running in this process, so an estimate and the upload's job share one. */
  private readonly running = new Map<string, Promise<FileRow | undefined>>();

  constructor(private readonly deps: { db: Db; storage: Storage; pool: DuckDBPool; tempDir: string; log: Log }) {
    this.files = new FilesRepository(deps.db);
  }

  /** The owner's file's count, counting it now if it never was; null when unknown (or not the owner's file). */
  async rowCount(ownerId: string, fileId: string): Promise<KnownRowCount | null> {
    let file = await this.files.findOwned(ownerId, fileId);
    if (file && file.row_count_state === null) file = await this.countOnce(file);
    if (!file || file.row_count_state !== 'counted' || file.row_count === null) return null;
    return { rows: Number(file.row_count), format: file.row_count_format as FileFormat };
  }

  /** The job after an upload: counts the file unless that was done (or it is gone). */
  async countAfterUpload(job: CountFileRowsJob): Promise<void> {
    await this.rowCount(job.ownerId, job.fileId);
  }

  /** Asks for the count after an upload; a queue that refuses is logged, never the upload's failure. */
  static async countLater(jobs: JobQueue, log: Log, file: CountFileRowsJob): Promise<void> {
    await jobs
      .enqueue<CountFileRowsJob>(COUNT_FILE_ROWS_JOB, file, { jobId: `count-rows-${file.fileId}` })
      .catch((err: unknown) => log.warn({ err, file: file.fileId }, 'could not queue the count of a file'));
  }

  private countOnce(file: FileRow): Promise<FileRow | undefined> {
    let counting = this.running.get(file.id);
    if (!counting) {
      counting = this.count(file).finally(() => this.running.delete(file.id));
      this.running.set(file.id, counting);
    }
    return counting;
  }

  private async count(file: FileRow): Promise<FileRow | undefined> {
    const format = formatOf(file.name);
    const size = Number(file.size);
    let rows: number | null = null;
    if (format && COUNTABLE_FORMATS.includes(format) && size > 0 && size <= ROW_COUNT_MAX_BYTES) {
      const counted = await this.countStored(file, format, size);
      // The bytes could not be fetched (storage unreachable): unknown for now, tried again next time.
      if (counted === 'not fetched') return file;
      rows = counted;
    }
    const result = {
      row_count: rows,
      row_count_format: rows === null ? null : format,
      row_count_state: rows === null ? ('unknown' as const) : ('counted' as const),
    };
    await this.files.setRowCount(file.id, result);
    this.deps.log.info({ file: file.id, format, rows }, rows === null ? 'file records not countable before a run' : 'counted a file’s records');
    return { ...file, ...result };
  }

  /** DuckDB reads only its own folders: the file is copied into the datasets' temporary one first. */
  private async countStored(file: FileRow, format: FileFormat, size: number): Promise<number | null | 'not fetched'> {
    const dir = path.join(this.deps.tempDir, 'datasets', 'counts');
    const local = path.join(dir, `${file.id}-${randomBytes(4).toString('hex')}${path.extname(file.name).toLowerCase()}`);
    try {
      try {
        await fs.promises.mkdir(dir, { recursive: true });
        await pipeline(await this.deps.storage.get(file.storage_key), fs.createWriteStream(local));
      } catch (err) {
        this.deps.log.warn({ err, file: file.id }, 'could not fetch a file to count its records');
        return 'not fetched';
      }
      return await countFileRows(this.deps.pool, local, format, size);
    } finally {
      await fs.promises.rm(local, { force: true });
    }
  }
}
