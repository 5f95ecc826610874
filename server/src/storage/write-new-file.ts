import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * Streams `body` (through `through`, if given) into a file that must not exist yet. The file is
 * created before any byte flows: with a lazily opened write stream, a source that fails at once
 * lets the open land after the caller has already removed the partial file, leaving it behind.
 */
export async function writeNewFile(file: string, body: NodeJS.ReadableStream, ...through: NodeJS.ReadWriteStream[]): Promise<void> {
  const handle = await createNewFile(file);
  try {
    await pipeline([body, ...through, handle.createWriteStream()]);
  } finally {
    // The stream closes the handle when it ends; this covers a pipeline that never started it.
    await handle.close().catch(() => undefined);
  }
}

/**
 * Opens a file that must not exist yet, making its folder only when it is missing: a run stores
 * a part per batch into the same folder, and a recursive mkdir before each was one of the most
 * costly calls of a fast HTTP step.
 */
async function createNewFile(file: string): Promise<fs.promises.FileHandle> {
  try {
    return await fs.promises.open(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    return await fs.promises.open(file, 'wx');
  }
}
