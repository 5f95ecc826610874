import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../lib/db-errors';
import { conflict, notFound, tooLarge } from '../../lib/errors';
import { FilesRepository, type FileRow } from './files.repository';
import { UsageEventsService } from '../usage/usage-events.service';
import type { FileOut } from './files.schemas';
import { FoldersRepository, type FolderRow } from './folders.repository';
import { firstFreeName, nameStem } from './names';
import { PendingUploadsRepository } from './pending-uploads.repository';

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

/**
 * What every way of putting a file somewhere obeys, whether it streams through this server or goes
 * straight to storage: the folder is the caller's own, the size limit and quota hold, the name is
 * free in its folder, and the upload is recorded for usage.
 */
export class FileRules {
  private readonly files: FilesRepository;
  private readonly folders: FoldersRepository;
  private readonly pending: PendingUploadsRepository;
  private readonly usage: UsageEventsService;

  constructor(
    db: Db,
    private readonly config: Pick<Config, 'storageQuotaBytes' | 'fileUploadMaxBytes'>,
  ) {
    this.files = new FilesRepository(db);
    this.folders = new FoldersRepository(db);
    this.pending = new PendingUploadsRepository(db);
    this.usage = new UsageEventsService(db);
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

  quotaExceeded(used: number) {
    return conflict('server.files.quotaExceeded', { used: formatBytes(used), quota: formatBytes(this.config.storageQuotaBytes) });
  }

  tooLarge(name: string) {
    return tooLarge('server.files.fileTooLarge', { name, max: formatBytes(this.config.fileUploadMaxBytes) });
  }

  /**
   * Writes with the first free name among `name`, `name (1)`… in the folder. A unique index has the
   * last word, so two uploads racing for one name both succeed under different names.
   */
  async withFreeName<T>(userId: string, folderId: string | null, name: string, write: (name: string) => Promise<T>): Promise<T> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const free = firstFreeName(name, await this.files.namesLike(userId, folderId, nameStem(name)));
      try {
        return await write(free);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
    throw conflict('server.files.nameTaken', { name });
  }

  /** One usage event per stored file, whichever way its bytes arrived (the key makes a retry harmless). */
  async recordUpload(userId: string, fileId: string, bytes: number): Promise<void> {
    await this.usage.record([{ userId, kind: 'storage.upload', quantity: bytes, refId: fileId, idempotencyKey: `storage.upload:${fileId}` }]);
  }
}
