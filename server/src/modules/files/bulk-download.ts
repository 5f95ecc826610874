import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Db } from '../../db/database';
import { invalid, notFound } from '../../lib/errors';
import type { Storage } from '../../storage';
import { FilesRepository, type FileRow } from './files.repository';
import type { BulkDownloadIn } from './files.schemas';
import { FoldersRepository } from './folders.repository';
import { checkName, firstFreeName, zipEntryName } from './names';

// Already compressed: storing them again deflated costs CPU for nothing.
const STORED = /^(image\/(png|jpeg|gif|webp)|application\/(zip|gzip|pdf|vnd\.apache\.parquet|vnd\.openxmlformats.*))$/;

interface Entry {
  path: string;
  file?: FileRow;
}

/**
 * A zip of the chosen files (at the top) and folders (each with its whole tree, empty folders
 * included), streamed: each file is read from storage only when the zip reaches it, so memory
 * stays flat whatever the total size. Any id the user does not own answers 404 before anything
 * is sent.
 */
export async function bulkDownload(db: Db, storage: Storage, userId: string, input: BulkDownloadIn): Promise<{ stream: Readable; name: string }> {
  const fileIds = [...new Set(input.file_ids)];
  const folderIds = [...new Set(input.folder_ids)];
  if (!fileIds.length && !folderIds.length) throw invalid('server.files.nothingSelected', ['body', 'file_ids']);
  const zipName = input.name === undefined ? undefined : checkName(input.name.endsWith('.zip') ? input.name : `${input.name}.zip`, ['body', 'name']);

  const filesRepo = new FilesRepository(db);
  const foldersRepo = new FoldersRepository(db);
  const files = await filesRepo.findManyOwned(userId, fileIds);
  if (files.length !== fileIds.length) throw notFound('server.files.fileNotFound');
  const roots = await foldersRepo.findManyOwned(userId, folderIds);
  if (roots.length !== folderIds.length) throw notFound('server.files.folderNotFound');

  // Names are unique per folder in the database, but a folder and a file may share one, and
  // selections from different folders may collide at the top of the zip.
  const used = new Map<string, Set<string>>();
  const place = (dir: string, name: string) => {
    const taken = used.get(dir) ?? new Set<string>();
    used.set(dir, taken);
    const free = firstFreeName(zipEntryName(name), taken);
    taken.add(free);
    return dir ? `${dir}/${free}` : free;
  };

  const entries: Entry[] = [];
  const emptyDirs: string[] = [];
  for (const file of files) entries.push({ path: place('', file.name), file });
  for (const root of roots) {
    const tree = await foldersRepo.subtree(userId, root.id);
    const paths = new Map<string, string>();
    for (const folder of tree) {
      const parentPath = folder.id === root.id ? '' : paths.get(folder.parent_id!)!;
      paths.set(folder.id, place(parentPath, folder.name));
    }
    const treeFiles = (await filesRepo.inFolders(userId, [...paths.keys()])).filter((f) => f.status === 'ready');
    const nonEmpty = new Set<string>();
    for (const file of treeFiles.sort((a, b) => a.name.localeCompare(b.name))) {
      entries.push({ path: place(paths.get(file.folder_id!)!, file.name), file });
      nonEmpty.add(file.folder_id!);
    }
    for (const folder of tree) {
      if (!nonEmpty.has(folder.id) && !tree.some((f) => f.parent_id === folder.id)) emptyDirs.push(paths.get(folder.id)!);
    }
  }

  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // The response has begun by the time an entry is read, so a stored object that is missing or
  // fails midway can only end it early (a truncated zip the client rejects). yazl merely emits
  // such errors, and an 'error' event nobody hears would bring the whole server down.
  const cutShort = (err: Error) => output.destroy(err);
  zip.on('error', cutShort);
  for (const entry of entries) {
    const file = entry.file!;
    zip.addReadStreamLazy(entry.path, { mtime: new Date(file.updated_at), compress: !STORED.test(file.content_type), size: Number(file.size) }, (cb) => {
      storage.get(file.storage_key).then((stream) => {
        stream.once('error', cutShort);
        cb(null, stream);
      }, cutShort);
    });
  }
  for (const dir of emptyDirs) zip.addEmptyDirectory(dir);
  zip.end();

  const name = zipName ?? (roots.length === 1 && !files.length ? zipEntryName(`${roots[0].name}.zip`) : 'files.zip');
  return { stream: output, name };
}
