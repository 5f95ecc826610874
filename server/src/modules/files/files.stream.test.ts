import http from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';

const MiB = 1024 * 1024;

/**
 * A 100 MB upload over real HTTP, generated on the fly on the client side, so neither end holds
 * the file. The server must stream it to storage: its memory may not grow by anything near the
 * file's size (a buffered upload would add at least 100 MB).
 */
describe('a 100 MB upload', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('is streamed to storage with bounded server memory and stored byte for byte', async () => {
    const { auth } = await signedInUser(t.app);
    const size = 100 * MiB;
    const boundary = 'stepwise-stream-boundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const hash = createHash('sha256');

    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakBuffers = before.arrayBuffers;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
    }, 20);

    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/api/v1/files/',
          headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      // One 1 MiB block, varied per chunk so the content is not trivially repetitive.
      const block = Buffer.alloc(MiB);
      let sent = 0;
      const write = () => {
        while (sent < size) {
          block.writeUInt32BE(sent / MiB, 0);
          hash.update(block);
          sent += MiB;
          if (!req.write(block)) return req.once('drain', write);
        }
        req.end(tail);
      };
      req.write(head);
      write();
    });
    clearInterval(sampler);

    expect(response.status).toBe(201);
    const file = JSON.parse(response.body).items[0];
    expect(file).toMatchObject({ name: 'big.bin', size, checksum_sha256: hash.digest('hex') });
    // A buffered upload would add at least 100 MB; what remains is GC lag and socket buffers (the
    // client runs in this process too).
    expect(peakBuffers - before.arrayBuffers).toBeLessThan(64 * MiB);
    expect(peakRss - before.rss).toBeLessThan(90 * MiB);
    const stored = await t.app.storage.head(`users/${(await t.app.inject({ url: '/api/v1/users/me', headers: auth })).json().id}/files/${file.id}`);
    expect(stored?.size).toBe(size);
  }, 120_000);
});
