import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useAppDispatch } from '../../app/hooks';
import { baseApi } from '../../services/baseApi';
import { addMessage } from '../notices/noticesSlice';
import {
  useDeleteFileMutation,
  useDeleteFolderMutation,
  useMoveFileMutation,
  useRenameFileMutation,
  useRenameFolderMutation,
  type FileEntry,
  type FolderEntry,
} from './filesApi';
import { downloadFile, fetchZip, reportTransferFailure, requestJson, saveBlob } from './transfer';

export type FilesBusy = 'delete' | 'move' | 'zip' | null;

/**
 * What can be done to entries of the file manager: download (one file, or a zip), rename, move
 * and delete, one or many. One entry goes through its RTK mutation (the server's message is the
 * notice); several go one by one and end in a single summary notice. `busy` says which is running.
 */
export function useFileOperations() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState<FilesBusy>(null);
  const [renameFile] = useRenameFileMutation();
  const [renameFolder] = useRenameFolderMutation();
  const [deleteFile] = useDeleteFileMutation();
  const [deleteFolder] = useDeleteFolderMutation();
  const [moveFile] = useMoveFileMutation();

  const downloadZip = async (entries: FolderEntry[], name: string) => {
    setBusy('zip');
    try {
      const blob = await fetchZip(
        entries.filter((e) => e.type === 'file').map((e) => e.id),
        entries.filter((e) => e.type === 'folder').map((e) => e.id),
        name,
      );
      saveBlob(blob, name);
    } catch (err) {
      reportTransferFailure(dispatch, err);
    } finally {
      setBusy(null);
    }
  };

  const downloadOne = async (file: FileEntry) => {
    try {
      await downloadFile(file.id, file.name);
    } catch (err) {
      reportTransferFailure(dispatch, err);
    }
  };

  const rename = async (item: FolderEntry, name: string) => {
    if (item.type === 'file') await renameFile({ id: item.id, name });
    else await renameFolder({ folder_id: item.id, name });
  };

  const runMany = async <T>(targets: T[], one: (target: T) => Promise<boolean>, many: (target: T) => Promise<unknown>, doneId: string) => {
    if (targets.length === 1) return one(targets[0]);
    let done = 0;
    for (const target of targets) {
      try {
        await many(target);
        done += 1;
      } catch (err) {
        reportTransferFailure(dispatch, err);
      }
    }
    dispatch(baseApi.util.invalidateTags(['Folder', 'File']));
    if (done > 0) dispatch(addMessage({ type: 'success', text: intl.formatMessage({ id: doneId }, { count: done }) }));
    return done === targets.length;
  };

  /** Answers whether every entry was deleted. */
  const remove = async (entries: FolderEntry[]): Promise<boolean> => {
    setBusy('delete');
    try {
      return await runMany(
        entries,
        async (item) => 'data' in (item.type === 'file' ? await deleteFile(item.id) : await deleteFolder(item.id)),
        (item) => requestJson('DELETE', item.type === 'file' ? `/files/${item.id}` : `/files/folders/${item.id}`),
        'files.delete.done',
      );
    } finally {
      setBusy(null);
    }
  };

  /** Answers whether every file was moved. */
  const move = async (files: FileEntry[], target: string | null): Promise<boolean> => {
    setBusy('move');
    try {
      return await runMany(
        files,
        async (file) => 'data' in (await moveFile({ id: file.id, folder_id: target })),
        (file) => requestJson('PUT', `/files/files/${file.id}/move`, { folder_id: target }),
        'files.move.done',
      );
    } finally {
      setBusy(null);
    }
  };

  return { busy, downloadZip, downloadOne, rename, remove, move };
}
