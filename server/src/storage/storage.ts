import type { Readable } from 'node:stream';

/**
 * Where file bytes live. Keys are chosen by the server (`users/<userId>/files/<fileId>`), never
 * built from names a user typed, so a key cannot point outside the user's space. Two real
 * backends: a folder on disk (`local-storage.ts`) and an S3-compatible bucket (`s3-storage.ts`).
 */
export interface Storage {
  readonly backend: 'local' | 's3';
  /** Streams `body` into `key` (replacing it) and answers how many bytes were stored. */
  put(key: string, body: Readable): Promise<{ size: number }>;
  /** The object's bytes, or the inclusive byte range of them. Throws ObjectNotFoundError. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size and date of an object, or null when there is none. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Deletes one object; deleting a missing one is not an error. */
  /**
   * Makes `toKey` an independent copy of `fromKey` (a hard link or a file copy on local storage, a
   * server-side copy on S3): deleting or replacing `fromKey` afterwards leaves `toKey` as it was.
   * A missing `fromKey` throws ObjectNotFoundError.
   */
  copy(fromKey: string, toKey: string): Promise<void>;
  delete(key: string): Promise<void>;
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /** Deletes every object whose key starts with `prefix`; answers how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Where a client may PUT exactly `size` bytes into `key` until the target expires. */
  presignPut(key: string, options: PresignOptions): Promise<UploadTarget>;
  /**
   * Deletes the temporary files of writes that ended without finishing (a crash mid-upload) and
   * were last written before `before`; answers how many. Local only: S3 keeps no temporaries of
   * ours (an interrupted multipart upload is the bucket's to expire, see the README).
   */
  removeStaleTemporaries?(before: Date): Promise<number>;
  /**
   * Where the object's bytes are on this machine, for readers that open files themselves (DuckDB
   * reading a dataset's Parquet file). Local only; with S3 they download a copy first.
   */
  localPath?(key: string): string;
  /** Big direct uploads in parts (S3 only; the local backend answers single PUT targets). */
  readonly multipart?: MultipartUploads;
  close(): Promise<void>;
}

export interface MultipartUploads {
  /** Starts a multipart upload and presigns one PUT per part of `partSize` bytes. */
  presign(key: string, options: PresignOptions & { partSize: number }): Promise<{ uploadId: string; parts: PartTarget[] }>;
  complete(key: string, uploadId: string, parts: { partNumber: number; etag: string }[]): Promise<void>;
  abort(key: string, uploadId: string): Promise<void>;
}

/** Inclusive on both ends, as in HTTP's `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  lastModified: Date;
}

export interface PresignOptions {
  size: number;
  expiresAt: Date;
}

export interface UploadTarget {
  method: 'PUT';
  /** Absolute for S3; for the local backend a path on this server (`/api/v1/files/direct-upload/…`). */
  url: string;
  /** Headers the client must send with the PUT. */
  headers: Record<string, string>;
}

export interface PartTarget {
  partNumber: number;
  url: string;
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored object at ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/** The storage key of a user's file. Both parts are server-made UUIDs. */
export const fileKey = (userId: string, fileId: string) => `users/${userId}/files/${fileId}`;

const keyPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*\/?$/;

/**
 * Keys and prefixes are plain segments (no leading dot, so no `.` or `..`, no empty segment, no
 * backslash): a second guard behind the rule that keys are never built from user input.
 */
export function assertSafeKey(key: string): void {
  if (!keyPattern.test(key) || key.length > 512) throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
}

/**
 * Deletes every listed object one by one: the same for both backends (S3's DeleteObjects needs
 * Content-MD5, which not every S3-compatible store checks alike).
 */
export async function deleteEachListed(storage: Pick<Storage, 'list' | 'delete'>, prefix: string): Promise<number> {
  let count = 0;
  for await (const object of storage.list(prefix)) {
    await storage.delete(object.key);
    count++;
  }
  return count;
}
