import type { Db } from '../../db/database';
import { FilesRepository } from './files.repository';
import { FoldersRepository } from './folders.repository';

/**
 * The files area's answers for other areas (a step's params, a clone, a running step): every
 * lookup is by owner, so another user's file or folder is not found, exactly like a missing one.
 */
export class FileLookupsService {
  private readonly files: FilesRepository;
  private readonly folders: FoldersRepository;

  constructor(db: Db) {
    this.files = new FilesRepository(db);
    this.folders = new FoldersRepository(db);
  }

  ownedFile(ownerId: string, id: string) {
    return this.files.findOwned(ownerId, id);
  }

  ownedFolder(ownerId: string, id: string) {
    return this.folders.findOwned(ownerId, id);
  }

  /** Which of these ids are the owner's files. */
  async ownedFileIds(ownerId: string, ids: string[]): Promise<Set<string>> {
    return new Set((await this.files.findManyOwned(ownerId, ids)).map((row) => row.id));
  }

  /** Which of these ids are the owner's folders. */
  async ownedFolderIds(ownerId: string, ids: string[]): Promise<Set<string>> {
    return new Set((await this.folders.findManyOwned(ownerId, ids)).map((row) => row.id));
  }

  /** The folder and every folder below it (empty when it is not the owner's). */
  folderTree(ownerId: string, folderId: string) {
    return this.folders.subtree(ownerId, folderId);
  }

  /** Up to `limit` ready files of the owner in these folders. */
  readyFilesIn(ownerId: string, folderIds: string[], limit: number) {
    return this.files.readyInFolders(ownerId, folderIds, limit);
  }
}
