import { randomUUID } from 'node:crypto';
import type { Log } from '../../lib/logger';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../lib/db-errors';
import { conflict, notFound } from '../../lib/errors';
import type { Storage } from '../../storage';
import { FilesRepository, type FileSort } from './files.repository';
import { UsageEventsService } from '../usage/usage-events.service';
import type { CreateFolderIn, FolderContentsOut, FolderEntry, FolderOut, FolderQuery } from './files.schemas';
import { FileRules, folderRef, toFileOut } from './file-rules';
import { FoldersRepository, type FolderRow } from './folders.repository';
import { checkName, firstFreeName, nameStem } from './names';

export const toFolderOut = (f: FolderRow): FolderOut => ({
  id: f.id,
  name: f.name,
  parent_id: f.parent_id,
  created_at: f.created_at,
  updated_at: f.updated_at,
});

const chunks = <T>(items: T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

type Services = { db: Db; storage: Storage; config: Config; log: Log };

/** Folders: a tree per user whose top level (`root`) is not a row. */
export class FoldersService {
  private readonly folders: FoldersRepository;
  private readonly filesRepo: FilesRepository;
  private readonly rules: FileRules;

  constructor(private readonly s: Services) {
    this.folders = new FoldersRepository(s.db);
    this.filesRepo = new FilesRepository(s.db);
    this.rules = new FileRules(s.db, s.config);
  }

  /** The folder, its breadcrumbs, and one page of its children: folders first (by name), then files. */
  async contents(userId: string, idParam: string, query: FolderQuery): Promise<FolderContentsOut> {
    const folderId = folderRef(idParam);
    const folder = await this.rules.requireFolder(userId, folderId);
    const order = query.order ?? 'asc';
    const fileSort: FileSort = query.sort ?? 'name';
    const folderSort = fileSort === 'size' ? 'name' : fileSort;
    const offset = (query.page - 1) * query.page_size;

    const [folderCount, fileCount, path, used] = await Promise.all([
      this.folders.count(userId, folderId),
      this.filesRepo.count(userId, folderId),
      folder ? this.folders.ancestry(userId, folder.id) : Promise.resolve([]),
      this.rules.usedBytes(userId),
    ]);
    const folderRows = offset < folderCount ? await this.folders.list(userId, folderId, order, folderSort, offset, query.page_size) : [];
    const fileRows = await this.filesRepo.list(userId, folderId, fileSort, order, Math.max(0, offset - folderCount), query.page_size - folderRows.length);
    const items: FolderEntry[] = [
      ...folderRows.map((f) => ({ type: 'folder' as const, ...toFolderOut(f) })),
      ...fileRows.map((f) => ({ type: 'file' as const, ...toFileOut(f) })),
    ];
    return {
      folder: folder ? toFolderOut(folder) : null,
      path: path.map((p) => ({ id: p.id, name: p.name })),
      items,
      total: folderCount + fileCount,
      page: query.page,
      page_size: query.page_size,
      folder_count: folderCount,
      file_count: fileCount,
      storage: { used_bytes: used, quota_bytes: this.s.config.storageQuotaBytes, max_file_bytes: this.s.config.fileUploadMaxBytes },
    };
  }

  /** Answers the folder and whether it is new (`reuse` may answer an existing one). */
  async create(userId: string, input: CreateFolderIn): Promise<{ folder: FolderOut; created: boolean }> {
    const name = checkName(input.name);
    const parentId = folderRef(input.parent_id);
    await this.rules.requireFolder(userId, parentId);
    const now = new Date().toISOString();
    const insert = (free: string) =>
      this.folders.insert({ id: randomUUID(), owner_id: userId, parent_id: parentId, name: free, created_at: now, updated_at: now });

    const mode = input.on_conflict ?? 'error';
    if (mode === 'rename') {
      for (let attempt = 0; attempt < 10; attempt++) {
        try {
          return { folder: toFolderOut(await insert(firstFreeName(name, await this.folders.namesLike(userId, parentId, nameStem(name))))), created: true };
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
        }
      }
    }
    try {
      return { folder: toFolderOut(await insert(name)), created: true };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const existing = mode === 'reuse' ? await this.folders.findByName(userId, parentId, name) : undefined;
      if (existing) return { folder: toFolderOut(existing), created: false };
      throw conflict('server.files.folderNameTaken', { name });
    }
  }

  async rename(userId: string, id: string, rawName: string): Promise<FolderOut> {
    const folder = await this.rules.requireFolder(userId, id);
    if (!folder) throw notFound('server.files.folderNotFound');
    const name = checkName(rawName);
    if (name !== folder.name) {
      try {
        await this.folders.rename(id, name);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('server.files.folderNameTaken', { name });
        throw err;
      }
    }
    return toFolderOut((await this.folders.findOwned(userId, id))!);
  }

  /**
   * Deletes the folder with everything below it: the rows in one transaction, then the stored
   * objects (a failure there leaves an unreferenced object, logged, never a broken file).
   */
  async delete(userId: string, id: string): Promise<{ files: number; folders: number; freed: number }> {
    const tree = await this.folders.subtree(userId, id);
    if (!tree.length) throw notFound('server.files.folderNotFound');
    const ids = tree.map((f) => f.id);
    const files = (await Promise.all(chunks(ids, 500).map((part) => this.filesRepo.inFolders(userId, part)))).flat();

    await this.s.db.transaction().execute(async (trx) => {
      await new FilesRepository(trx).deleteMany(files.map((f) => f.id));
      // Subfolders go with their parent (ON DELETE CASCADE).
      await new FoldersRepository(trx).delete(id);
      await new UsageEventsService(trx).record(
        files
          .filter((f) => f.status === 'ready')
          .map((f) => ({ userId, kind: 'storage.delete' as const, quantity: Number(f.size), refId: f.id, idempotencyKey: `storage.delete:${f.id}` })),
      );
    });

    const keys = files.map((f) => f.storage_key);
    for (const part of chunks(keys, 8)) {
      await Promise.all(part.map((key) => this.s.storage.delete(key).catch((err) => this.s.log.error({ err, key }, 'could not delete a stored object'))));
    }
    return { files: files.filter((f) => f.status === 'ready').length, folders: tree.length, freed: files.reduce((sum, f) => sum + Number(f.size), 0) };
  }
}
