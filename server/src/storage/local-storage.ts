import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import {
  assertSafeKey,
  deleteEachListed,
  ObjectNotFoundError,
  type ByteRange,
  type ObjectInfo,
  type PresignOptions,
  type Storage,
  type UploadTarget,
} from './storage';
import { writeNewFile } from './write-new-file';

export interface LocalStorageOptions {
  /** The folder every key lives under (DATA_DIR/storage by default). */
  dir: string;
  /** Makes the URL of our own signed direct-upload route for a key (see upload-tokens.ts). */
  signUpload: (key: string, options: PresignOptions) => string;
}

const PARTIAL = '.partial';

/**
 * Objects as plain files under one folder. A write goes to a temporary file that is renamed into
 * place when complete, so a reader never sees half an object and a failed upload leaves nothing.
 */
export class LocalStorage implements Storage {
  readonly backend = 'local' as const;
  private readonly root: string;

  constructor(private readonly options: LocalStorageOptions) {
    this.root = path.resolve(options.dir);
    fs.mkdirSync(this.root, { recursive: true });
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`Unsafe storage key: ${key}`);
    return full;
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const target = this.pathOf(key);
    // The source may fail while the file is created; writeNewFile below still sees that error.
    body.on('error', () => undefined);
    const temp = `${target}.${randomUUID()}${PARTIAL}`;
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await writeNewFile(temp, body, count);
      await fs.promises.rename(temp, target);
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    // Open first, so a missing object is an error here rather than on the stream later.
    const handle = await fs.promises.open(file, 'r').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' || err.code === 'ENOTDIR' ? new ObjectNotFoundError(key) : err;
    });
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const stat = await fs.promises.stat(this.pathOf(key));
      return stat.isFile() ? { key, size: stat.size, lastModified: stat.mtime } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      throw err;
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const source = this.pathOf(fromKey);
    const target = this.pathOf(toKey);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}${PARTIAL}`;
    try {
      // A hard link costs nothing and stays valid when the source is deleted or replaced (both are
      // a rename or an unlink here, never a write into the file); another file system: a copy.
      await fs.promises.link(source, temp).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') throw new ObjectNotFoundError(fromKey);
        await fs.promises.copyFile(source, temp);
      });
      // A new object to the sweeps that go by age (a link keeps the source's times).
      const now = new Date();
      await fs.promises.utimes(temp, now, now);
      await fs.promises.rename(temp, target);
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    if (prefix) assertSafeKey(prefix);
    // Walk from the deepest folder the prefix names, then filter by the full prefix.
    const slash = prefix.lastIndexOf('/');
    const start = slash >= 0 ? path.join(this.root, prefix.slice(0, slash)) : this.root;
    for await (const { full, name } of filesUnder(start)) {
      // Dot files are ours (the signing key); no key can start with a dot.
      if (name.endsWith(PARTIAL) || name.startsWith('.')) continue;
      const key = path.relative(this.root, full).split(path.sep).join('/');
      if (!key.startsWith(prefix)) continue;
      const stat = await fs.promises.stat(full);
      yield { key, size: stat.size, lastModified: stat.mtime };
    }
  }

  /**
   * A write that is still going keeps touching its temporary file, so the age that counts is the
   * last modification: anything untouched since `before` has no writer left (or one stalled so long
   * that its upload's pending row is gone too), and would otherwise stay on disk forever.
   */
  async removeStaleTemporaries(before: Date): Promise<number> {
    let removed = 0;
    for await (const { full, name } of filesUnder(this.root)) {
      if (!name.endsWith(PARTIAL)) continue;
      const stat = await fs.promises.stat(full).catch(() => null);
      if (stat && stat.mtime < before) {
        await fs.promises.rm(full, { force: true });
        removed++;
      }
    }
    return removed;
  }

  deletePrefix(prefix: string): Promise<number> {
    return deleteEachListed(this, prefix);
  }

  async presignPut(key: string, options: PresignOptions): Promise<UploadTarget> {
    assertSafeKey(key);
    return { method: 'PUT', url: this.options.signUpload(key, options), headers: { 'content-type': 'application/octet-stream' } };
  }

  async close(): Promise<void> {}
}

/** Every plain file below `start`, depth first; a folder removed meanwhile is simply skipped. */
async function* filesUnder(start: string): AsyncIterable<{ full: string; name: string }> {
  const stack = [start];
  while (stack.length) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile()) yield { full, name: entry.name };
    }
  }
}
