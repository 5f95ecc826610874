import { useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { bindUploadDispatch, uploads, useUploads, type UploadItem } from './uploads';

const settled = (item: UploadItem | undefined) => !item || (item.status !== 'queued' && item.status !== 'uploading');

/**
 * Uploads started from the file picker, through the file manager's own queue (so they show there
 * too, and refresh the folder being browsed when done). Answers the picker's rows, and hands
 * `onUploaded` the files each batch made once all of its uploads have finished, so the picker can
 * choose the one file that was uploaded.
 */
export function usePickerUploads(onUploaded: (files: { id: string; name: string }[]) => void) {
  const dispatch = useAppDispatch();
  useEffect(() => bindUploadDispatch(dispatch), [dispatch]);
  const all = useUploads();
  const [shown, setShown] = useState<string[]>([]);
  const [waiting, setWaiting] = useState<string[][]>([]);
  const report = useRef(onUploaded);
  useEffect(() => {
    report.current = onUploaded;
  });

  useEffect(() => {
    const finished = waiting.filter((batch) => batch.every((id) => settled(all.find((item) => item.id === id))));
    if (finished.length === 0) return;
    setWaiting((batches) => batches.filter((batch) => !finished.includes(batch)));
    for (const batch of finished) {
      const made = batch
        .map((id) => all.find((item) => item.id === id))
        .flatMap((item) => (item?.status === 'done' && item.fileId ? [{ id: item.fileId, name: item.name }] : []));
      report.current(made);
    }
  }, [all, waiting]);

  const start = (files: File[], folderId: string | null) => {
    if (files.length === 0) return;
    const ids = uploads.enqueue(files, folderId);
    setShown((before) => [...before, ...ids]);
    setWaiting((before) => [...before, ids]);
  };

  return { items: all.filter((item) => shown.includes(item.id)), start, cancel: (id: string) => uploads.cancel(id) };
}
