import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../lib/db-errors';
import { conflict, invalid, notFound } from '../../lib/errors';
import type { JobQueue } from '../../jobs/queue';
import type { Log } from '../../lib/logger';
import { fileKey, ObjectNotFoundError, type ByteRange, type Storage } from '../../storage';
import { bulkDownload } from './bulk-download';
import { FileRowCounts } from './file-row-counts';
import { FileRules, folderRef, toFileOut } from './file-rules';
import { FilesRepository, type FileRow } from './files.repository';
import { UsageEventsService } from '../usage/usage-events.service';
import type { BulkDownloadIn, FileDetailOut, FileOut } from './files.schemas';
import { FoldersRepository } from './folders.repository';
import { checkName } from './names';
import { sniffContentType } from './sniff';
import { UploadLimitError, UploadMeter } from './upload-meter';

/** An uploaded part as the multipart parser hands it over. */
export interface IncomingFile {
  /** The multipart field the part came in (the client's `loc` for a refused name). */
  fieldname?: string;
  filename: string;
  file: Readable;
}

/** `jobs`: where a new file's record count is asked for (file-row-counts.ts); without it, estimates count it when they first need it. */
type Services = { db: Db; storage: Storage; config: Config; log: Log; jobs?: JobQueue };

/**
 * Files: streamed multipart uploads, move, rename, delete, download (direct uploads to storage are
 * `DirectUploadsService`). Every id is looked up together with its owner, so another user's id is
 * not found, exactly like a missing one.
 */
export class FilesService {
  private readonly files: FilesRepository;
  private readonly folders: FoldersRepository;
  private readonly usage: UsageEventsService;
  private readonly rules: FileRules;

  constructor(private readonly s: Services) {
    this.files = new FilesRepository(s.db);
    this.folders = new FoldersRepository(s.db);
    this.usage = new UsageEventsService(s.db);
    this.rules = new FileRules(s.db, s.config);
  }

  // ---- lookups ----

  async requireFile(userId: string, id: string): Promise<FileRow> {
    const file = await this.files.findOwned(userId, id);
    if (!file) throw notFound('server.files.fileNotFound');
    return file;
  }

  /** The file and the folders it sits in, top level first. */
  async describe(userId: string, id: string): Promise<FileDetailOut> {
    const file = await this.requireFile(userId, id);
    const path = file.folder_id ? await this.folders.ancestry(userId, file.folder_id) : [];
    return { ...toFileOut(file), path: path.map((folder) => ({ id: folder.id, name: folder.name })) };
  }

  // ---- multipart upload ----

  async uploadMany(userId: string, folderIdParam: string | undefined, parts: AsyncIterable<IncomingFile>): Promise<FileOut[]> {
    const folderId = folderRef(folderIdParam);
    await this.rules.requireFolder(userId, folderId);
    const stored: FileOut[] = [];
    for await (const part of parts) stored.push(await this.uploadOne(userId, folderId, part));
    if (!stored.length) throw invalid('server.files.noFiles', ['body']);
    return stored;
  }

  /**
   * Stores a file a step made (an export) as if uploaded: same name rules, free-name suffix, quota
   * and content sniffing. `folderId` null is the top level.
   */
  async storeFile(userId: string, folderId: string | null, name: string, body: Readable): Promise<FileOut> {
    await this.rules.requireFolder(userId, folderId);
    return this.uploadOne(userId, folderId, { filename: name, file: body });
  }

  /**
   * Streams one part to storage through the meter. The name is reserved first (a pending row), so
   * the suffix is decided before the bytes arrive; the row turns ready when they are all stored.
   */
  private async uploadOne(userId: string, folderId: string | null, part: IncomingFile): Promise<FileOut> {
    const { config, storage } = this.s;
    let name: string;
    try {
      name = checkName(part.filename, ['body', part.fieldname || 'file']);
    } catch (err) {
      part.file.resume();
      throw err;
    }
    const used = await this.rules.usedBytes(userId);
    const room = config.storageQuotaBytes - used;
    if (room <= 0) {
      part.file.resume();
      throw this.rules.quotaExceeded(used);
    }
    const limit = Math.min(config.fileUploadMaxBytes, room);
    const id = randomUUID();
    const key = fileKey(userId, id);
    const now = new Date().toISOString();
    const row = await this.rules.withFreeName(userId, folderId, name, (free) =>
      this.files.insert({
        id,
        owner_id: userId,
        folder_id: folderId,
        name: free,
        size: 0,
        content_type: 'application/octet-stream',
        checksum_sha256: null,
        storage_key: key,
        status: 'pending',
        created_at: now,
        updated_at: now,
      }),
    );

    const meter = new UploadMeter(limit);
    part.file.once('error', (err) => meter.destroy(err));
    try {
      await storage.put(key, part.file.pipe(meter));
      const usedNow = await this.rules.usedBytes(userId);
      if (usedNow + meter.size > config.storageQuotaBytes) throw this.rules.quotaExceeded(usedNow);
      const ready = {
        size: meter.size,
        checksum_sha256: meter.digest(),
        content_type: sniffContentType(meter.head, row.name),
      };
      if (!(await this.files.markReady(id, ready))) throw notFound('server.files.folderNotFound');
      await this.rules.recordUpload(userId, id, meter.size);
      if (this.s.jobs) await FileRowCounts.countLater(this.s.jobs, this.s.log, { ownerId: userId, fileId: id });
      return toFileOut({ ...row, ...ready, status: 'ready' });
    } catch (err) {
      await this.files.delete(id);
      await storage.delete(key).catch((e) => this.s.log.warn({ err: e, key }, 'could not delete a failed upload'));
      if (err instanceof UploadLimitError) {
        part.file.resume();
        throw limit === config.fileUploadMaxBytes ? this.rules.tooLarge(row.name) : this.rules.quotaExceeded(used);
      }
      throw err;
    }
  }

  // ---- move, rename, delete ----

  /** Moves a file; a name taken in the target folder gets a numbered suffix. */
  async move(userId: string, id: string, target: string | null | undefined): Promise<{ file: FileOut; renamed: boolean }> {
    const file = await this.requireFile(userId, id);
    const folderId = folderRef(target);
    await this.rules.requireFolder(userId, folderId);
    if (file.folder_id === folderId) return { file: toFileOut(file), renamed: false };
    const name = await this.rules.withFreeName(userId, folderId, file.name, async (free) => {
      await this.files.update(id, { folder_id: folderId, name: free });
      return free;
    });
    return { file: toFileOut((await this.files.findOwned(userId, id))!), renamed: name !== file.name };
  }

  /** Renames a file; a name already used in its folder is refused (409), not changed. */
  async rename(userId: string, id: string, rawName: string): Promise<FileOut> {
    const file = await this.requireFile(userId, id);
    const name = checkName(rawName);
    if (name !== file.name) {
      try {
        await this.files.update(id, { name });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('server.files.nameTaken', { name });
        throw err;
      }
    }
    return toFileOut((await this.files.findOwned(userId, id))!);
  }

  async delete(userId: string, id: string): Promise<{ freed: number }> {
    const file = await this.requireFile(userId, id);
    await this.files.delete(id);
    await this.usage.record([{ userId, kind: 'storage.delete', quantity: Number(file.size), refId: id, idempotencyKey: `storage.delete:${id}` }]);
    await this.s.storage.delete(file.storage_key).catch((err) => this.s.log.error({ err, key: file.storage_key }, 'could not delete a stored object'));
    return { freed: Number(file.size) };
  }

  // ---- download ----

  /**
   * The file's bytes, or the inclusive `range` of them (which its route took from the request's
   * Range header, checked against `file.size`).
   */
  async open(file: FileRow, range: ByteRange | null): Promise<Readable> {
    try {
      return await this.s.storage.get(file.storage_key, range ?? undefined);
    } catch (err) {
      if (!(err instanceof ObjectNotFoundError)) throw err;
      this.s.log.error({ key: file.storage_key, file: file.id }, 'a file record has no stored object');
      throw notFound('server.files.fileNotFound');
    }
  }

  /** A zip of the chosen files and folders, streamed (see `bulk-download.ts`). */
  bulkDownload(userId: string, input: BulkDownloadIn): Promise<{ stream: Readable; name: string }> {
    return bulkDownload(this.s.db, this.s.storage, userId, input);
  }
}
