import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';

// s3rver ships no types; this is the part of it the tests use.
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  httpServer: http.Server;
  close(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: object) => S3rverInstance;

export interface TestS3 {
  /** Environment that points the app's storage at this server. */
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver) on a loopback port with a temporary folder, so the S3
 * backend is tested over HTTP with the real SDK. It accepts any credentials.
 */
export async function startS3Server(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-s3-'));
  const bucket = 'stepwise-test';
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      server.httpServer.closeAllConnections();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
