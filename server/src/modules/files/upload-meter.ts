import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { SNIFF_BYTES } from './sniff';

/** Thrown into the stream when more than `limit` bytes arrive. */
export class UploadLimitError extends Error {
  constructor(readonly limit: number) {
    super(`upload exceeds ${limit} bytes`);
    this.name = 'UploadLimitError';
  }
}

/**
 * Sits between the incoming bytes and storage: counts them, hashes them (SHA-256), keeps the first
 * few KB for sniffing the content type, and fails the stream as soon as the limit is passed, so a
 * too-large upload is refused without being stored or held in memory.
 */
export class UploadMeter extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) return done(new UploadLimitError(this.limit));
    this.hash.update(chunk);
    if (this.headLength < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(part));
      this.headLength += part.length;
    }
    done(null, chunk);
  }

  get head(): Buffer {
    return Buffer.concat(this.headChunks);
  }

  /** Hex SHA-256 of everything that passed; call once, after the stream ended. */
  digest(): string {
    return this.hash.digest('hex');
  }
}
