import fp from 'fastify-plugin';
import { createStorage, type Storage } from '../storage';
import type { UploadTokenSigner } from '../storage/upload-tokens';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
    /** Signs and checks local direct-upload URLs; null when storage is S3. */
    uploadSigner: UploadTokenSigner | null;
  }
}

/** The configured storage backend (local folder or S3-compatible), closed with the app. */
export default fp(
  async (app) => {
    const { storage, signer } = createStorage(app.config);
    app.decorate('storage', storage);
    app.decorate('uploadSigner', signer);
    app.addHook('onClose', async () => storage.close());
  },
  { name: 'storage' },
);
