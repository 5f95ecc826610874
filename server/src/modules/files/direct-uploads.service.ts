import { randomUUID } from 'node:crypto';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { conflict, forbidden, invalid, notFound, rejected, tooLarge } from '../../lib/errors';
import type { JobQueue } from '../../jobs/queue';
import type { Log } from '../../lib/logger';
import { fileKey, type Storage } from '../../storage';
import type { UploadTokenSigner } from '../../storage/upload-tokens';
import { FileRowCounts } from './file-row-counts';
import { FileRules, folderRef, toFileOut } from './file-rules';
import { FilesRepository } from './files.repository';
import type { ConfirmUploadIn, FileOut, PrepareUploadIn, PrepareUploadOut } from './files.schemas';
import { checkName } from './names';
import { PendingUploadsRepository } from './pending-uploads.repository';
import { sniffContentType } from './sniff';
import { UploadLimitError, UploadMeter } from './upload-meter';

type Services = { db: Db; storage: Storage; signer: UploadTokenSigner | null; config: Config; log: Log; jobs?: JobQueue };

/**
 * Large files that skip this server's request body: prepare hands out a storage target (a presigned
 * S3 PUT or parts, or a signed URL on this server for local storage) and reserves the size against
 * the quota; the client sends the bytes there; confirm checks what arrived and creates the file.
 */
export class DirectUploadsService {
  private readonly files: FilesRepository;
  private readonly pending: PendingUploadsRepository;
  private readonly rules: FileRules;

  constructor(private readonly s: Services) {
    this.files = new FilesRepository(s.db);
    this.pending = new PendingUploadsRepository(s.db);
    this.rules = new FileRules(s.db, s.config);
  }

  async prepare(userId: string, input: PrepareUploadIn): Promise<PrepareUploadOut> {
    const { config, storage } = this.s;
    const folderId = folderRef(input.folder_id);
    await this.rules.requireFolder(userId, folderId);
    const name = checkName(input.name, ['body', 'name']);
    if (input.size > config.fileUploadMaxBytes) throw this.rules.tooLarge(name);
    const used = await this.rules.usedBytes(userId);
    if (used + input.size > config.storageQuotaBytes) throw this.rules.quotaExceeded(used);

    const id = randomUUID();
    const key = fileKey(userId, id);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + config.directUploadTtlMinutes * 60_000);
    const partSize = config.storage.backend === 's3' ? config.storage.multipartPartBytes : 0;
    const multipart =
      storage.multipart && partSize && input.size > partSize ? await storage.multipart.presign(key, { size: input.size, expiresAt, partSize }) : null;
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
  async accept(rawToken: string, body: Readable, contentLength: number | null): Promise<{ size: number }> {
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
  async confirm(userId: string, input: ConfirmUploadIn): Promise<FileOut> {
    const { storage, config } = this.s;
    const pending = await this.pending.findOwned(userId, input.upload_id);
    if (!pending) throw notFound('server.files.uploadNotFound');
    const key = pending.storage_key;

    if (pending.multipart_upload_id) {
      if (!input.parts?.length) throw invalid('server.files.partsRequired', ['body', 'parts']);
      try {
        await storage.multipart!.complete(
          key,
          pending.multipart_upload_id,
          input.parts.map((p) => ({ partNumber: p.part_number, etag: p.etag })),
        );
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
    if (pending.folder_id) await this.rules.requireFolder(userId, pending.folder_id);
    const used = await this.rules.usedBytes(userId); // includes this upload's own reservation
    if (used > config.storageQuotaBytes) throw this.rules.quotaExceeded(used);

    const now = new Date().toISOString();
    const row = await this.rules.withFreeName(userId, pending.folder_id, pending.name, (name) =>
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
    await this.rules.recordUpload(userId, row.id, object.size);
    if (this.s.jobs) await FileRowCounts.countLater(this.s.jobs, this.s.log, { ownerId: userId, fileId: row.id });
    return toFileOut(row);
  }
}
