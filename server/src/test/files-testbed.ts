import type { FastifyInstance } from 'fastify';
import { createTestApp, signedInUser, type TestApp } from './test-app';
import { startS3Server, type TestS3 } from './s3-server';
import { client } from './files-client';

/** Where the files tests run the API's storage: a temporary DATA_DIR, or S3 (test/s3-server.ts). */
export const storageBackends = ['local', 's3'] as const;
export type StorageBackend = (typeof storageBackends)[number];

export interface FilesTestBed {
  /** The test app: read it in a test or hook, once the bed's beforeAll has built it. */
  readonly app: FastifyInstance;
  /** The app's DATA_DIR, where local storage keeps the files. */
  readonly dataDir: string;
  /** Signs a new user up and in: the user, and the files API as they call it. */
  signedIn(): Promise<{ user: { id: string }; api: ReturnType<typeof client> }>;
}

/**
 * The files tests' app on one storage backend, for the describe block it is called in: built
 * before the block's tests (over the S3 stand-in for `s3`), closed with the stand-in after them.
 */
export function filesTestBed(backend: StorageBackend): FilesTestBed {
  let t: TestApp | undefined;
  let s3: TestS3 | null = null;
  beforeAll(async () => {
    if (backend === 's3') s3 = await startS3Server();
    t = await createTestApp(s3?.env ?? {});
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });
  const built = (): TestApp => {
    if (!t) throw new Error('The files test bed builds its app in beforeAll: read it in a test or hook.');
    return t;
  };
  return {
    get app() {
      return built().app;
    },
    get dataDir() {
      return built().dataDir;
    },
    async signedIn() {
      const { app } = built();
      const { user, auth } = await signedInUser(app);
      return { user, api: client(app, auth) };
    },
  };
}
