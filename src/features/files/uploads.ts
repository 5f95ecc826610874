import { useSyncExternalStore } from 'react';
import type { AppDispatch } from '../../app/store';
import { baseApi } from '../../services/baseApi';
import type { FolderOut, UploadOut } from './filesApi';
import { AbortedError, describeTransferFailure, reportTransferFailure, requestJson, uploadFile, type UploadHandle } from './transfer';

// The upload queue: one file per request, a few at a time, each with its own progress and cancel.
// It lives outside React so uploads keep going (and stay visible) while the user browses folders.

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'error' | 'cancelled';

export interface UploadItem {
  id: string;
  name: string;
  /** Where it goes, for display: "photos/2024" (empty at the top of the target). */
  dir: string;
  size: number;
  loaded: number;
  status: UploadStatus;
  error?: string;
  /** Once done: the id of the file the server made (a picker chooses it). */
  fileId?: string;
}

/** A file to upload and the folders it sits in, relative to the drop target (["photos", "2024"]). */
export interface PendingFile {
  /** null for an empty folder, which is only created. */
  file: File | null;
  dirs: string[];
}

interface Job {
  file: File;
  folderId: string | null;
  handle?: UploadHandle<UploadOut>;
}

export const UPLOAD_CONCURRENCY = 3;

let nextId = 1;

export class UploadManager {
  private items: UploadItem[] = [];
  private jobs = new Map<string, Job>();
  private listeners = new Set<() => void>();
  private running = 0;

  constructor(
    private readonly dispatch: () => AppDispatch | null,
    private readonly concurrency = UPLOAD_CONCURRENCY,
  ) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.items;

  private update(id: string, patch: Partial<UploadItem>) {
    this.items = this.items.map((item) => (item.id === id ? { ...item, ...patch } : item));
    for (const listener of this.listeners) listener();
  }

  private notify(err: unknown) {
    const dispatch = this.dispatch();
    if (dispatch) reportTransferFailure(dispatch, err);
  }

  private refresh(folderId: string | null | 'all') {
    const dispatch = this.dispatch();
    if (!dispatch) return;
    dispatch(baseApi.util.invalidateTags(folderId === 'all' ? ['Folder'] : [{ type: 'Folder', id: folderId ?? 'root' }]));
  }

  /** Queues files for one folder (null: the top level). Answers the new items' ids. */
  enqueue(files: File[], folderId: string | null, dir = ''): string[] {
    const added: UploadItem[] = files.map((file) => ({ id: `u${nextId++}`, name: file.name, dir, size: file.size, loaded: 0, status: 'queued' }));
    added.forEach((item, i) => this.jobs.set(item.id, { file: files[i], folderId }));
    this.items = [...this.items, ...added];
    for (const listener of this.listeners) listener();
    this.pump();
    return added.map((item) => item.id);
  }

  /**
   * Uploads dropped or picked files with their folders: makes each folder (reusing one that
   * already has the name, so dropping the same folder twice merges), then queues its files.
   */
  async enqueueTree(pending: PendingFile[], targetFolderId: string | null): Promise<void> {
    const byDir = new Map<string, PendingFile[]>();
    for (const entry of pending) {
      const key = entry.dirs.join('/');
      byDir.set(key, [...(byDir.get(key) ?? []), entry]);
    }
    const folderIds = new Map<string, string | null>([['', targetFolderId]]);
    const failed = new Set<string>();
    const ensure = async (dirs: string[]): Promise<string | null | undefined> => {
      const key = dirs.join('/');
      if (folderIds.has(key)) return folderIds.get(key);
      if (failed.has(key)) return undefined;
      const parent = await ensure(dirs.slice(0, -1));
      if (parent === undefined) {
        failed.add(key);
        return undefined;
      }
      try {
        const folder = await requestJson<FolderOut>('POST', '/files/folders', { name: dirs[dirs.length - 1], parent_id: parent, on_conflict: 'reuse' });
        folderIds.set(key, folder.id);
        return folder.id;
      } catch (err) {
        failed.add(key);
        this.notify(err);
        return undefined;
      }
    };
    // Shallow folders first, so a parent exists before its children ask for it.
    const keys = [...byDir.keys()].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
    for (const key of keys) {
      const entries = byDir.get(key)!;
      const folderId = await ensure(entries[0].dirs);
      if (folderId === undefined) continue;
      if (key) this.refresh(targetFolderId);
      // Empty folders arrive as a marker without a file: making the folder was the whole job.
      const files = entries.map((entry) => entry.file).filter((file): file is File => file !== null);
      if (files.length) this.enqueue(files, folderId, key);
    }
    this.refresh('all');
  }

  cancel(id: string) {
    const job = this.jobs.get(id);
    const item = this.items.find((i) => i.id === id);
    if (!job || !item) return;
    if (item.status === 'queued') {
      this.jobs.delete(id);
      this.update(id, { status: 'cancelled' });
    } else if (item.status === 'uploading') {
      job.handle?.abort();
    }
  }

  cancelAll() {
    for (const item of this.items) if (item.status === 'queued' || item.status === 'uploading') this.cancel(item.id);
  }

  /** Forgets finished, failed and cancelled uploads (the panel's "Clear"). */
  clearFinished() {
    this.items = this.items.filter((item) => item.status === 'queued' || item.status === 'uploading');
    for (const listener of this.listeners) listener();
  }

  get active(): boolean {
    return this.items.some((item) => item.status === 'queued' || item.status === 'uploading');
  }

  private pump() {
    while (this.running < this.concurrency) {
      const next = this.items.find((item) => item.status === 'queued' && this.jobs.has(item.id));
      if (!next) break;
      this.start(next.id);
    }
    if (this.running === 0) this.refresh('all');
  }

  private start(id: string) {
    const job = this.jobs.get(id)!;
    this.running += 1;
    this.update(id, { status: 'uploading' });
    job.handle = uploadFile<UploadOut>(job.file, job.file.name, job.folderId, ({ loaded }) => this.update(id, { loaded: Math.min(loaded, job.file.size) }));
    job.handle.promise
      .then(
        (answer) => {
          this.update(id, { status: 'done', loaded: job.file.size, fileId: answer?.items?.[0]?.id });
          this.refresh(job.folderId);
        },
        (err: unknown) => {
          if (err instanceof AbortedError) {
            this.update(id, { status: 'cancelled' });
            return;
          }
          const notices = describeTransferFailure(err);
          this.update(id, { status: 'error', error: notices[0]?.text });
          this.notify(err);
        },
      )
      .finally(() => {
        this.jobs.delete(id);
        this.running -= 1;
        this.pump();
      });
  }
}

let appDispatch: AppDispatch | null = null;

/** The page binds the store's dispatch, so finished uploads refresh folders and failures show. */
export function bindUploadDispatch(dispatch: AppDispatch | null) {
  appDispatch = dispatch;
}

export const uploads = new UploadManager(() => appDispatch);

export function useUploads(manager: UploadManager = uploads): UploadItem[] {
  return useSyncExternalStore(manager.subscribe, manager.getSnapshot);
}
