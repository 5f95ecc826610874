import type { PendingFile } from './uploads';

// Turns what the user dropped or picked into files with their folder path. Dropped folders are
// walked with the File System Entries API (webkitGetAsEntry); a folder picked with
// <input webkitdirectory> names each file's path in webkitRelativePath instead.

interface Entry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
}
interface FileEntryLike extends Entry {
  file(success: (file: File) => void, failure?: (err: unknown) => void): void;
}
interface DirectoryEntryLike extends Entry {
  createReader(): { readEntries(success: (entries: Entry[]) => void, failure?: (err: unknown) => void): void };
}

function readFile(entry: FileEntryLike): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** readEntries answers at most 100 entries per call (Chromium): call until it answers none. */
async function readAll(entry: DirectoryEntryLike): Promise<Entry[]> {
  const reader = entry.createReader();
  const all: Entry[] = [];
  for (;;) {
    const batch = await new Promise<Entry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

async function walk(entry: Entry, dirs: string[], out: PendingFile[]): Promise<void> {
  if (entry.isFile) {
    out.push({ file: await readFile(entry as FileEntryLike), dirs });
  } else if (entry.isDirectory) {
    const children = await readAll(entry as DirectoryEntryLike);
    const inner = [...dirs, entry.name];
    // An empty folder is kept as a marker so it is still created.
    if (children.length === 0) out.push({ file: null, dirs: inner });
    for (const child of children) await walk(child, inner, out);
  }
}

/** Files (with folders) from a drop. Entries must be taken synchronously, before any await. */
export async function filesFromDataTransfer(data: DataTransfer): Promise<PendingFile[]> {
  const items = Array.from(data.items ?? []).filter((item) => item.kind === 'file');
  const entries = items.map((item) => (typeof item.webkitGetAsEntry === 'function' ? (item.webkitGetAsEntry() as Entry | null) : null));
  if (entries.length === 0 || entries.some((entry) => !entry)) {
    return Array.from(data.files ?? []).map((file) => ({ file, dirs: [] }));
  }
  const out: PendingFile[] = [];
  for (const entry of entries) await walk(entry!, [], out);
  return out;
}

/** Files from an <input type=file>, with the folders of a webkitdirectory pick. */
export function filesFromInput(list: FileList | null): PendingFile[] {
  return Array.from(list ?? []).map((file) => {
    const parts = (file.webkitRelativePath || '').split('/').filter(Boolean);
    return { file, dirs: parts.slice(0, -1) };
  });
}
