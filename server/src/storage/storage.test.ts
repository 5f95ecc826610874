import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { loadConfig } from '../config/config';
import { startS3Server, type TestS3 } from '../test/s3-server';
import { createStorage, fileKey, ObjectNotFoundError, type Storage } from '.';
import { UploadTokenSigner } from './upload-tokens';

const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(['local', 's3'] as const)('%s storage', (backend) => {
  let storage: Storage;
  let dir: string;
  let s3: TestS3 | null = null;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-storage-'));
    if (backend === 's3') s3 = await startS3Server();
    storage = createStorage(loadConfig({ DATA_DIR: dir, ...(s3?.env ?? {}) })).storage;
  });
  afterAll(async () => {
    await storage.close();
    await s3?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores a stream and gives back the identical bytes, whole or by range', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const key = fileKey('u1', 'f1');
    expect(await storage.put(key, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]))).toEqual({ size: bytes.length });
    expect(sha(await read(await storage.get(key)))).toBe(sha(bytes));
    expect(await read(await storage.get(key, { start: 10, end: 19 }))).toEqual(bytes.subarray(10, 20));
    expect(await storage.head(key)).toMatchObject({ key, size: bytes.length });
  });

  it('says when an object is missing, and deleting one twice is fine', async () => {
    const key = fileKey('u1', 'gone');
    expect(await storage.head(key)).toBeNull();
    await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await storage.put(key, Readable.from([Buffer.from('x')]));
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.head(key)).toBeNull();
  });

  it('copies an object: the copy stays whole when the original is replaced or deleted', async () => {
    const bytes = randomBytes(64 * 1024 + 3);
    const from = fileKey('u1', 'original');
    const to = 'datasets/u1/copy.csv';
    await storage.put(from, Readable.from([bytes]));
    await storage.copy(from, to);
    await storage.put(from, Readable.from([Buffer.from('replaced')]));
    expect(sha(await read(await storage.get(to)))).toBe(sha(bytes));
    await storage.delete(from);
    expect(sha(await read(await storage.get(to)))).toBe(sha(bytes));
    await expect(storage.copy(fileKey('u1', 'missing'), 'datasets/u1/other.csv')).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await storage.head('datasets/u1/other.csv')).toBeNull();
  });

  it('lists and deletes by prefix, only under that prefix', async () => {
    for (const id of ['a', 'b', 'c']) await storage.put(fileKey('lister', id), Readable.from([Buffer.from(id)]));
    await storage.put(fileKey('other', 'a'), Readable.from([Buffer.from('keep')]));
    const keys: string[] = [];
    for await (const o of storage.list('users/lister/')) keys.push(o.key);
    expect(keys.sort()).toEqual(['a', 'b', 'c'].map((id) => fileKey('lister', id)));
    expect(await storage.deletePrefix('users/lister/')).toBe(3);
    expect(await storage.head(fileKey('other', 'a'))).not.toBeNull();
  });

  it('a failing source stores nothing', async () => {
    const key = fileKey('u1', 'broken');
    const source = new Readable({ read() {} });
    source.push(Buffer.alloc(1024));
    setImmediate(() => source.destroy(new Error('client went away')));
    await expect(storage.put(key, source)).rejects.toThrow();
    expect(await storage.head(key)).toBeNull();
  });

  it.each(['../etc/passwd', '/etc/passwd', 'users/../../x', 'users/./x', 'users//x', 'users\\x', '.hidden', 'users/%2e%2e/x', 'users/\u2025/x', ''])(
    'refuses the unsafe key %j',
    async (key) => {
      await expect(storage.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(/Unsafe storage key/);
      await expect(storage.get(key)).rejects.toThrow(/Unsafe storage key/);
    },
  );

  it('hands out a PUT target that accepts exactly the promised upload', async () => {
    const key = fileKey('u1', 'direct');
    const target = await storage.presignPut(key, { size: 5, expiresAt: new Date(Date.now() + 60_000) });
    expect(target.method).toBe('PUT');
    if (backend === 'local') {
      expect(target.url).toMatch(/^\/api\/v1\/files\/direct-upload\/direct\.\d+\.[\w-]{43}$/);
    } else {
      expect(target.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/stepwise-test\/users\/u1\/files\/direct\?.*X-Amz-Signature=/);
      const res = await fetch(target.url, { method: 'PUT', body: 'hello', headers: target.headers });
      expect(res.status).toBe(200);
      expect((await read(await storage.get(key))).toString()).toBe('hello');
    }
  });

  (backend === 's3' ? it : it.skip)('multipart: presigned parts, completed, read back whole', async () => {
    const key = fileKey('u1', 'parts');
    const partSize = 5 * 1024 * 1024;
    const bytes = randomBytes(partSize + 1234);
    const { uploadId, parts } = await storage.multipart!.presign(key, { size: bytes.length, partSize, expiresAt: new Date(Date.now() + 60_000) });
    expect(parts.map((p) => p.partNumber)).toEqual([1, 2]);
    const etags = [];
    for (const part of parts) {
      const body = bytes.subarray((part.partNumber - 1) * partSize, part.partNumber * partSize);
      const res = await fetch(part.url, { method: 'PUT', body });
      expect(res.status).toBe(200);
      etags.push({ partNumber: part.partNumber, etag: res.headers.get('etag')! });
    }
    await storage.multipart!.complete(key, uploadId, etags);
    expect(sha(await read(await storage.get(key)))).toBe(sha(bytes));
  });
});

describe('upload tokens', () => {
  const signer = new UploadTokenSigner(randomBytes(32));
  const key = 'users/u/files/0b5e6c1e-7f62-4a8e-9a51-3c2d2f4d9e10';
  const expiresAt = new Date(Date.now() + 60_000);

  it('verify what they signed for that key, until it expires, and fit in a path parameter', () => {
    const raw = signer.sign(key, expiresAt);
    expect(raw.length).toBeLessThanOrEqual(100);
    const token = signer.parse(raw)!;
    expect(token.id).toBe('0b5e6c1e-7f62-4a8e-9a51-3c2d2f4d9e10');
    expect(signer.verify(token, key)).toBe('ok');
    expect(signer.verify(token, key, new Date(Date.now() + 120_000))).toBe('expired');
  });

  it('refuse tampered tokens, tokens of another key and of another secret', () => {
    const raw = signer.sign(key, expiresAt);
    const [id, expiry, mac] = raw.split('.');
    expect(signer.verify(signer.parse(`${id}.${Number(expiry) + 3600}.${mac}`)!, key)).toBe('invalid');
    expect(signer.verify(signer.parse(raw)!, 'users/other/files/0b5e6c1e-7f62-4a8e-9a51-3c2d2f4d9e10')).toBe('invalid');
    expect(new UploadTokenSigner(randomBytes(32)).verify(signer.parse(raw)!, key)).toBe('invalid');
    expect(signer.parse(`${raw}x`)).toBeNull();
    expect(signer.parse('../../etc.1.x')).toBeNull();
  });
});
