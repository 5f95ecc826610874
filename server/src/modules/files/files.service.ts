import { randomUUID } from 'node:crypto';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Log } from '../../lib/logger';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../lib/db-errors';
import { conflict, forbidden, invalid, notFound, rejected, tooLarge } from '../../lib/errors';
import { fileKey, ObjectNotFoundError, type ByteRange, type Storage } from '../../storage';
import type { UploadTokenSigner } from '../../storage/upload-tokens';
import { FilesRepository, UsageEventsRepository, type FileRow } from './files.repository';
import type { ConfirmUploadIn, FileOut, PrepareUploadIn, PrepareUploadOut } from './files.schemas';
import { FoldersRepository, type FolderRow } from './folders.repository';
import { parseRange } from './http-download';
import { checkTypedName, cleanUploadedName, firstFreeName, nameStem } from './names';
import { PendingUploadsRepository } from './pending-uploads.repository';
import { sniffContentType } from './sniff';
import { UploadLimitError, UploadMeter } from './upload-meter';

export const toFileOut = (f: FileRow): FileOut => ({
  id: f.id,
  name: f.name,
  folder_id: f.folder_id,
  size: Number(f.size),
  content_type: f.content_type,
  checksum_sha256: f.checksum_sha256 ?? '',
  created_at: f.created_at,
  updated_at: f.updated_at,
});

/** `root`, empty or null: the user's top level. */
export const folderRef = (id: string | null | undefined): string | null => (id === undefined || id === null || id === '' || id === 'root' ? null : id);

/** 5368709120 → "5 GB"; for messages people read. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${Number(value.toFixed(value < 10 ? 1 : 0))} ${units[unit]}`;
}

/** An uploaded part as the multipart parser hands it over. */
export interface IncomingFile {
  filename: string;
  file: Readable;
}

export interface Download {
  file: FileRow;
  /** null: the whole file. */
  range: ByteRange | null;
  stream: Readable;
}

type Services = { db: Db; storage: Storage; signer: UploadTokenSigner | null; config: Config; log: Log };

/**
 * Files: uploads (streamed multipart, or direct to storage with prepare/confirm), move, rename,
 * delete, download. Every id is looked up together with its owner, so another user's id is not
 * found, exactly like a missing one.
 */
export class FilesService {
  private readonly files: FilesRepository;
  private readonly folders: FoldersRepository;
  private readonly pending: PendingUploadsRepository;
  private readonly usage: UsageEventsRepository;

  constructor(private readonly s: Services) {
    this.files = new FilesRepository(s.db);
    this.folders = new FoldersRepository(s.db);
    this.pending = new PendingUploadsRepository(s.db);
    this.usage = new UsageEventsRepository(s.db);
  }

  // ---- lookups ----

  async requireFile(userId: string, id: string): Promise<FileRow> {
    const file = await this.files.findOwned(userId, id);
    if (!file) throw notFound('server.files.fileNotFound');
    return file;
  }

  /** The folder, or null for the top level; another user's folder is not found. */
  async requireFolder(userId: string, id: string | null): Promise<FolderRow | null> {
    if (id === null) return null;
    const folder = await this.folders.findOwned(userId, id);
    if (!folder) throw notFound('server.files.folderNotFound');
    return folder;
  }

  /** Bytes that count against the quota: stored files plus sizes promised to open direct uploads. */
  async usedBytes(userId: string): Promise<number> {
    const [stored, reserved] = await Promise.all([this.files.usedBytes(userId), this.pending.reservedBytes(userId, new Date().toISOString())]);
    return stored + reserved;
  }

  private quotaError(used: number) {
    return conflict('server.files.quotaExceeded', { used: formatBytes(used), quota: formatBytes(this.s.config.storageQuotaBytes) });
  }

  private tooLargeError(name: string) {
    return tooLarge('server.files.fileTooLarge', { name, max: formatBytes(this.s.config.fileUploadMaxBytes) });
  }

  /**
   * Writes with the first free name among `name`, `name (1)`… A unique index has the last word,
   * so two uploads racing for one name both succeed under different names.
   */
  private async withFreeName<T>(name: string, taken: (stem: string) => Promise<Set<string>>, write: (name: string) => Promise<T>): Promise<T> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const free = firstFreeName(name, await taken(nameStem(name)));
      try {
        return await write(free);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
    throw conflict('server.files.nameTaken', { name });
  }

  // ---- multipart upload ----

  async uploadMany(userId: string, folderIdParam: string | undefined, parts: AsyncIterable<IncomingFile>): Promise<FileOut[]> {
    const folderId = folderRef(folderIdParam);
    await this.requireFolder(userId, folderId);
    const stored: FileOut[] = [];
    for await (const part of parts) stored.push(await this.uploadOne(userId, folderId, part));
    if (!stored.length) throw invalid('server.files.noFiles', ['body']);
    return stored;
  }

  /**
   * Streams one part to storage through the meter. The name is reserved first (a pending row), so
   * the suffix is decided before the bytes arrive; the row turns ready when they are all stored.
   */
  private async uploadOne(userId: string, folderId: string | null, part: IncomingFile): Promise<FileOut> {
    const { config, storage } = this.s;
    const name = cleanUploadedName(part.filename);
    const used = await this.usedBytes(userId);
    const room = config.storageQuotaBytes - used;
    if (room <= 0) {
      part.file.resume();
      throw this.quotaError(used);
    }
    const limit = Math.min(config.fileUploadMaxBytes, room);
    const id = randomUUID();
    const key = fileKey(userId, id);
    const now = new Date().toISOString();
    const row = await this.withFreeName(
      name,
      (stem) => this.files.namesLike(userId, folderId, stem),
      (free) =>
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
      const usedNow = await this.usedBytes(userId);
      if (usedNow + meter.size > config.storageQuotaBytes) throw this.quotaError(usedNow);
      const ready = {
        size: meter.size,
        checksum_sha256: meter.digest(),
        content_type: sniffContentType(meter.head, row.name),
      };
      if (!(await this.files.markReady(id, ready))) throw notFound('server.files.folderNotFound');
      await this.usage.record([{ userId, kind: 'storage.upload', quantity: meter.size, refId: id, idempotencyKey: `storage.upload:${id}` }]);
      return toFileOut({ ...row, ...ready, status: 'ready' });
    } catch (err) {
      await this.files.delete(id);
      await storage.delete(key).catch((e) => this.s.log.warn({ err: e, key }, 'could not delete a failed upload'));
      if (err instanceof UploadLimitError) {
        part.file.resume();
        throw limit === config.fileUploadMaxBytes ? this.tooLargeError(row.name) : this.quotaError(used);
      }
      throw err;
    }
  }

  // ---- direct upload: prepare, PUT, confirm ----

  async prepareUpload(userId: string, input: PrepareUploadIn): Promise<PrepareUploadOut> {
    const { config, storage } = this.s;
    const folderId = folderRef(input.folder_id);
    await this.requireFolder(userId, folderId);
    const name = cleanUploadedName(input.name);
    if (input.size > config.fileUploadMaxBytes) throw this.tooLargeError(name);
    const used = await this.usedBytes(userId);
    if (used + input.size > config.storageQuotaBytes) throw this.quotaError(used);

    const id = randomUUID();
    const key = fileKey(userId, id);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + config.directUploadTtlMinutes * 60_000);
    const partSize = config.storage.backend === 's3' ? config.storage.multipartPartBytes : 0;
    const multipart = storage.multipart && partSize && input.size > partSize ? await storage.multipart.presign(key, { size: input.size, expiresAt, partSize }) : null;
    const single = multipart ? null : await storage.presignPut(key, { size: input.size, expiresAt });

    await this.pending.insert({
      id,
      owner_id: userId,
      folder_id: folderId,
      name,
      size: input.size,
      checksum_sha256: input.checksum_sha256?.toLowerCase() ?? null,
      storage_key: key,
      multipart_upload_id: multipart?.uploadId ?? null,
      part_size: multipart ? partSize : null,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
    });
    return {
      upload_id: id,
      method: 'PUT',
      url: single?.url ?? null,
      headers: single?.headers ?? {},
      part_size: multipart ? partSize : null,
      parts: multipart ? multipart.parts.map((p) => ({ part_number: p.partNumber, url: p.url })) : null,
      expires_at: expiresAt.toISOString(),
    };
  }

  /** The body of a PUT to a signed local direct-upload URL (the token is the authorisation). */
  async acceptDirectUpload(rawToken: string, body: Readable, contentLength: number | null): Promise<{ size: number }> {
    const token = this.s.signer?.parse(rawToken) ?? null;
    const pending = token ? await this.pending.findById(token.id) : undefined;
    const verdict = token && pending ? this.s.signer!.verify(token, pending.storage_key) : 'invalid';
    if (verdict === 'invalid') throw forbidden('server.files.uploadLinkInvalid');
    if (verdict === 'expired') throw forbidden('server.files.uploadLinkExpired');
    const grant = { key: pending!.storage_key, size: Number(pending!.size) };
    const largerThanDeclared = () => tooLarge('server.files.uploadLargerThanDeclared', { size: grant.size });
    if (contentLength !== null && contentLength > grant.size) throw largerThanDeclared();

    const meter = new UploadMeter(grant.size);
    body.once('error', (err) => meter.destroy(err));
    try {
      await this.s.storage.put(grant.key, body.pipe(meter));
    } catch (err) {
      await this.s.storage.delete(grant.key).catch(() => undefined);
      if (err instanceof UploadLimitError) throw largerThanDeclared();
      throw err;
    }
    if (meter.size !== grant.size) {
      await this.s.storage.delete(grant.key);
      throw rejected('server.files.sizeMismatch', { expected: grant.size, actual: meter.size });
    }
    return { size: meter.size };
  }

  /**
   * Checks what arrived in storage against what was promised (size, and SHA-256 computed from
   * the stored bytes), then creates the file. A mismatch deletes the object; the upload target
   * stays valid until it expires, so the client may PUT again.
   */
  async confirmUpload(userId: string, input: ConfirmUploadIn): Promise<FileOut> {
    const { storage, config } = this.s;
    const pending = await this.pending.findOwned(userId, input.upload_id);
    if (!pending) throw notFound('server.files.uploadNotFound');
    const key = pending.storage_key;

    if (pending.multipart_upload_id) {
      if (!input.parts?.length) throw invalid('server.files.partsRequired', ['body', 'parts']);
      try {
        await storage.multipart!.complete(key, pending.multipart_upload_id, input.parts.map((p) => ({ partNumber: p.part_number, etag: p.etag })));
      } catch (err) {
        this.s.log.info({ err, upload: pending.id }, 'multipart completion refused');
        throw rejected('server.files.partsInvalid');
      }
    }

    const object = await storage.head(key);
    if (!object) throw conflict('server.files.uploadMissing');
    if (object.size !== Number(pending.size)) {
      await storage.delete(key);
      throw rejected('server.files.sizeMismatch', { expected: Number(pending.size), actual: object.size });
    }
    const meter = new UploadMeter(Number.MAX_SAFE_INTEGER);
    await pipeline(await storage.get(key), meter, new Writable({ write: (_chunk, _enc, done) => done() }));
    const checksum = meter.digest();
    const expected = input.checksum_sha256?.toLowerCase() ?? pending.checksum_sha256;
    if (expected && expected !== checksum) {
      await storage.delete(key);
      throw rejected('server.files.checksumMismatch');
    }
    if (pending.folder_id) await this.requireFolder(userId, pending.folder_id);
    const used = await this.usedBytes(userId); // includes this upload's own reservation
    if (used > config.storageQuotaBytes) throw this.quotaError(used);

    const now = new Date().toISOString();
    const row = await this.withFreeName(
      pending.name,
      (stem) => this.files.namesLike(userId, pending.folder_id, stem),
      (name) =>
        this.files.insert({
          id: pending.id,
          owner_id: userId,
          folder_id: pending.folder_id,
          name,
          size: object.size,
          content_type: sniffContentType(meter.head, name),
          checksum_sha256: checksum,
          storage_key: key,
          status: 'ready',
          created_at: now,
          updated_at: now,
        }),
    );
    await this.pending.delete(pending.id);
    await this.usage.record([{ userId, kind: 'storage.upload', quantity: object.size, refId: row.id, idempotencyKey: `storage.upload:${row.id}` }]);
    return toFileOut(row);
  }

  // ---- move, rename, delete ----

  /** Moves a file; a name taken in the target folder gets a numbered suffix. */
  async move(userId: string, id: string, target: string | null | undefined): Promise<{ file: FileOut; renamed: boolean }> {
    const file = await this.requireFile(userId, id);
    const folderId = folderRef(target);
    await this.requireFolder(userId, folderId);
    if (file.folder_id === folderId) return { file: toFileOut(file), renamed: false };
    const name = await this.withFreeName(
      file.name,
      (stem) => this.files.namesLike(userId, folderId, stem),
      async (free) => {
        await this.files.update(id, { folder_id: folderId, name: free });
        return free;
      },
    );
    return { file: toFileOut((await this.files.findOwned(userId, id))!), renamed: name !== file.name };
  }

  /** Renames a file; a name already used in its folder is refused (409), not changed. */
  async rename(userId: string, id: string, rawName: string): Promise<FileOut> {
    const file = await this.requireFile(userId, id);
    const name = checkTypedName(rawName);
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

  async download(userId: string, id: string, rangeHeader: string | undefined): Promise<Download | { file: FileRow; unsatisfiable: true }> {
    const file = await this.requireFile(userId, id);
    const range = parseRange(rangeHeader, Number(file.size));
    if (range === 'unsatisfiable') return { file, unsatisfiable: true };
    try {
      return { file, range, stream: await this.s.storage.get(file.storage_key, range ?? undefined) };
    } catch (err) {
      if (!(err instanceof ObjectNotFoundError)) throw err;
      this.s.log.error({ key: file.storage_key, file: file.id }, 'a file record has no stored object');
      throw notFound('server.files.fileNotFound');
    }
  }
}
