import { Transform, type Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '../config/config';
import {
  assertSafeKey,
  deleteEachListed,
  ObjectNotFoundError,
  type ByteRange,
  type MultipartUploads,
  type ObjectInfo,
  type PresignOptions,
  type Storage,
  type UploadTarget,
} from './storage';

type S3Config = Extract<StorageConfig, { backend: 's3' }>;

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

const secondsUntil = (date: Date) => Math.max(1, Math.ceil((date.getTime() - Date.now()) / 1000));

/**
 * An S3-compatible bucket (AWS, MinIO, R2, s3rver in tests). Uploads stream through lib-storage's
 * multipart Upload, so at most `queueSize × partSize` bytes are held in memory whatever the size.
 */
export class S3Storage implements Storage {
  readonly backend = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
      // Newer SDKs add CRC checksums (aws-chunked bodies) to every upload by default; many
      // S3-compatible stores do not speak that, and our own sha256 covers integrity.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    assertSafeKey(key);
    let size = 0;
    const counted = body.pipe(
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          done(null, chunk);
        },
      }),
    );
    // An error in the source must fail the upload (pipe() does not forward it).
    body.once('error', (err) => counted.destroy(err));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counted },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertSafeKey(key);
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      return out.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFoundError(key);
      throw err;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertSafeKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: Number(out.ContentLength ?? 0), lastModified: out.LastModified ?? new Date(0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    assertSafeKey(fromKey);
    assertSafeKey(toKey);
    try {
      // Keys are safe by construction (letters, digits, `._-/`), so the copy source needs no escaping.
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: toKey, CopySource: `${this.bucket}/${fromKey}` }));
    } catch (err) {
      if (isNotFound(err) || (err as { name?: string })?.name === 'NoSuchKey') throw new ObjectNotFoundError(fromKey);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    if (prefix) assertSafeKey(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        if (o.Key) yield { key: o.Key, size: Number(o.Size ?? 0), lastModified: o.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  deletePrefix(prefix: string): Promise<number> {
    return deleteEachListed(this, prefix);
  }

  async presignPut(key: string, options: PresignOptions): Promise<UploadTarget> {
    assertSafeKey(key);
    const url = await getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentLength: options.size }), {
      expiresIn: secondsUntil(options.expiresAt),
    });
    return { method: 'PUT', url, headers: {} };
  }

  readonly multipart: MultipartUploads = {
    presign: async (key, options) => {
      assertSafeKey(key);
      const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }));
      const uploadId = created.UploadId!;
      const count = Math.max(1, Math.ceil(options.size / options.partSize));
      const expiresIn = secondsUntil(options.expiresAt);
      const parts = await Promise.all(
        Array.from({ length: count }, async (_, i) => ({
          partNumber: i + 1,
          url: await getSignedUrl(this.client, new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: i + 1 }), {
            expiresIn,
          }),
        })),
      );
      return { uploadId, parts };
    },
    complete: async (key, uploadId, parts) => {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: [...parts].sort((a, b) => a.partNumber - b.partNumber).map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
    },
    abort: async (key, uploadId) => {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch((err) => {
        if (!isNotFound(err)) throw err;
      });
    },
  };

  async close(): Promise<void> {
    this.client.destroy();
  }
}
