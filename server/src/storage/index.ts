import type { Config } from '../config/config';
import { LocalStorage } from './local-storage';
import { S3Storage } from './s3-storage';
import type { Storage } from './storage';
import { UploadTokenSigner } from './upload-tokens';

export * from './storage';

/** Path of the public route that accepts signed local direct uploads (modules/files). */
export const DIRECT_UPLOAD_PATH = '/api/v1/files/direct-upload';

export interface StorageHandle {
  storage: Storage;
  /** Signs local direct-upload tokens; null with S3 (its own presigned URLs are used instead). */
  signer: UploadTokenSigner | null;
}

/** The configured backend: S3 when S3_BUCKET is set, else a folder under DATA_DIR. */
export function createStorage(config: Pick<Config, 'storage'>): StorageHandle {
  if (config.storage.backend === 's3') return { storage: new S3Storage(config.storage), signer: null };
  const signer = UploadTokenSigner.forDir(config.storage.dir);
  const storage = new LocalStorage({
    dir: config.storage.dir,
    signUpload: (key, options) => `${DIRECT_UPLOAD_PATH}/${signer.sign(key, options.expiresAt)}`,
  });
  return { storage, signer };
}
