import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/database';
import type { Config } from '../../config/config';
import type { Log } from '../../lib/logger';
import { StepRunFailed } from '../../engine/runners';
import type { FolderEntry, LocalUserFile, SavedFile, UserFiles } from '../../engine/runners';
import type { Storage } from '../../storage';
import { FileLookupsService } from '../files/file-lookups.service';
import { FilesService } from '../files/files.service';

/** Files in a folder a step reads at most (a folder import). */
export const MAX_FOLDER_FILES = 10_000;

/**
 * The owner's files as a running step sees them (engine/runners' UserFiles): owner-checked reads
 * copied into a scratch folder DuckDB may read, and saves that go through the same rules as uploads.
 * The scratch folder is per step run and removed by `dispose()`.
 */
export class StepUserFiles implements UserFiles {
  readonly scratchDir: string;
  private readonly files: FileLookupsService;
  private readonly service: FilesService;
  private copies = 0;

  constructor(
    private readonly deps: { db: Db; storage: Storage; config: Config; log: Log },
    private readonly ownerId: string,
    stepRunId: string,
  ) {
    // Inside the datasets' temporary folder: one of the folders DuckDB is allowed to touch.
    // One folder per execution, not per step run: an execution stopped by a pause still unwinds
    // (and removes its folder) while the resumed one of the same step run has started in its own.
    this.scratchDir = path.join(deps.config.datasets.tempDir, 'datasets', 'steps', `${stepRunId}-${randomBytes(4).toString('hex')}`);
    this.files = new FileLookupsService(deps.db);
    this.service = new FilesService(deps);
  }

  /** Makes the scratch folder: sinks write into it directly (before this, an export step failed with DuckDB's "Cannot open file"). */
  async prepare(): Promise<void> {
    await fs.promises.mkdir(this.scratchDir, { recursive: true });
  }

  async withLocalFile<T>(fileId: string, fn: (file: LocalUserFile) => Promise<T>): Promise<T> {
    const row = await this.files.ownedFile(this.ownerId, fileId);
    if (!row || row.status !== 'ready') throw new StepRunFailed(`The file ${fileId} no longer exists; choose another in the step's settings`, null);
    // The extension is kept: DuckDB and people reading logs both go by it.
    const local = path.join(this.scratchDir, `in-${++this.copies}${path.extname(row.name).toLowerCase()}`);
    try {
      await pipeline(await this.deps.storage.get(row.storage_key), fs.createWriteStream(local));
      return await fn({ id: row.id, name: row.name, size: Number(row.size), path: local });
    } finally {
      await fs.promises.rm(local, { force: true });
    }
  }

  async keep(fileId: string, storageKey: string): Promise<{ id: string; name: string; size: number }> {
    const row = await this.files.ownedFile(this.ownerId, fileId);
    if (!row || row.status !== 'ready') throw new StepRunFailed(`The file ${fileId} no longer exists; choose another in the step's settings`, null);
    await this.deps.storage.copy(row.storage_key, storageKey);
    return { id: row.id, name: row.name, size: Number(row.size) };
  }

  async listFolder(folderId: string): Promise<FolderEntry[]> {
    const tree = await this.files.folderTree(this.ownerId, folderId);
    if (!tree.length) throw new StepRunFailed(`The folder ${folderId} no longer exists; choose another in the step's settings`, null);
    const relative = new Map<string, string>([[folderId, '']]);
    for (const folder of tree) if (folder.id !== folderId) relative.set(folder.id, `${relative.get(folder.parent_id!) ?? ''}${folder.name}/`);
    const rows = await this.files.readyFilesIn(this.ownerId, [...relative.keys()], MAX_FOLDER_FILES + 1);
    if (rows.length > MAX_FOLDER_FILES) throw new StepRunFailed(`The folder holds more than ${MAX_FOLDER_FILES} files; split it into smaller folders`, null);
    return rows
      .map((r) => ({ id: r.id, name: r.name, size: Number(r.size), path: `${relative.get(r.folder_id!) ?? ''}${r.name}` }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async save(request: { name: string; folderId?: string | null; localPath: string }): Promise<SavedFile> {
    try {
      const out = await this.service.storeFile(this.ownerId, request.folderId ?? null, request.name, fs.createReadStream(request.localPath));
      return { id: out.id, name: out.name, folderId: out.folder_id ?? null, size: out.size };
    } finally {
      await fs.promises.rm(request.localPath, { force: true });
    }
  }

  async dispose(): Promise<void> {
    await fs.promises
      .rm(this.scratchDir, { recursive: true, force: true })
      .catch((err) => this.deps.log.warn({ err, dir: this.scratchDir }, 'could not remove a step scratch folder'));
  }
}
