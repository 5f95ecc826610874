import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';

/**
 * Streams `body` (through `through`, if given) into a file that must not exist yet. The file is
 * created before any byte flows: with a lazily opened write stream, a source that fails at once
 * lets the open land after the caller has already removed the partial file, leaving it behind.
 */
export async function writeNewFile(file: string, body: NodeJS.ReadableStream, ...through: NodeJS.ReadWriteStream[]): Promise<void> {
  const handle = await fs.promises.open(file, 'wx');
  try {
    await pipeline([body, ...through, handle.createWriteStream()]);
  } finally {
    // The stream closes the handle when it ends; this covers a pipeline that never started it.
    await handle.close().catch(() => undefined);
  }
}
