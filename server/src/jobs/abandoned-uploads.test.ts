import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Log } from '../lib/logger';
import { fileKey } from '../storage';
import { createTestApp, signedInUser, type TestApp } from '../test/test-app';
import { cleanAbandonedUploads } from './abandoned-uploads';

const HOUR = 3_600_000;
const quiet: Log = { debug() {}, info() {}, warn() {}, error() {} };

describe('abandoned uploads after a crash (local storage)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const storageDir = () => path.join(t.dataDir, 'storage');
  /** What LocalStorage.put leaves when its process dies mid-write: `<key>.<uuid>.partial`. */
  function leaveTemporary(key: string, lastWritten: Date): string {
    const file = path.join(storageDir(), ...key.split('/')) + `.${randomUUID()}.partial`;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.alloc(1024, 7));
    fs.utimesSync(file, lastWritten, lastWritten);
    return file;
  }

  it('removes the half-written file, the pending file row and the unconfirmed upload, and nothing live', async () => {
    const { user, auth } = await signedInUser(t.app);
    const now = new Date();
    const twoDaysAgo = new Date(now.getTime() - 48 * HOUR);

    // A streamed upload cut off two days ago: its row still reserves the name, its bytes sit in a temporary file.
    const crashedId = randomUUID();
    const crashedKey = fileKey(user.id, crashedId);
    await t.app.db
      .insertInto('files')
      .values({
        id: crashedId,
        owner_id: user.id,
        folder_id: null,
        name: 'report.csv',
        size: 0,
        content_type: 'application/octet-stream',
        checksum_sha256: null,
        storage_key: crashedKey,
        status: 'pending',
        created_at: twoDaysAgo.toISOString(),
        updated_at: twoDaysAgo.toISOString(),
      })
      .execute();
    const crashedTemp = leaveTemporary(crashedKey, twoDaysAgo);

    // A direct upload whose PUT was cut off: a temporary file beside its key, and its reservation row.
    const prepared = await t.app.inject({ method: 'POST', url: '/api/v1/files/prepare-upload', headers: auth, payload: { name: 'big.bin', size: 4096 } });
    expect(prepared.statusCode).toBe(201);
    const uploadId = prepared.json().upload_id as string;
    const row = await t.app.db.selectFrom('pending_uploads').selectAll().where('id', '=', uploadId).executeTakeFirstOrThrow();
    await t.app.db.updateTable('pending_uploads').set({ expires_at: twoDaysAgo.toISOString() }).where('id', '=', uploadId).execute();
    const directTemp = leaveTemporary(row.storage_key, twoDaysAgo);

    // A file some upload is writing right now, and a finished file: both must stay.
    const liveTemp = leaveTemporary(fileKey(user.id, randomUUID()), new Date(now.getTime() - 5 * 60_000));
    const kept = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files/',
      headers: { ...auth, 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="files"; filename="kept.txt"\r\nContent-Type: text/plain\r\n\r\nkept\r\n--b--\r\n',
    });
    expect(kept.statusCode).toBe(201);
    const keptFile = kept.json().items[0];

    expect(await cleanAbandonedUploads(t.app.db, t.app.storage, quiet, now)).toEqual({ direct: 1, streamed: 1, temporaries: 2 });

    expect(fs.existsSync(crashedTemp)).toBe(false);
    expect(fs.existsSync(directTemp)).toBe(false);
    expect(fs.existsSync(liveTemp)).toBe(true);
    expect(await t.app.db.selectFrom('files').select('id').where('id', '=', crashedId).executeTakeFirst()).toBeUndefined();
    expect(await t.app.db.selectFrom('pending_uploads').select('id').where('id', '=', uploadId).executeTakeFirst()).toBeUndefined();
    // The name the crashed upload reserved is free again, and the finished file is untouched.
    const listing = await t.app.inject({ url: '/api/v1/files/folders/root', headers: auth });
    expect(listing.statusCode).toBe(200);
    expect(listing.body).toContain('kept.txt');
    expect(listing.body).not.toContain('report.csv');
    const download = await t.app.inject({ url: `/api/v1/files/files/${keptFile.id}/download`, headers: auth });
    expect(download.body).toBe('kept');

    // Nothing left to do on the next run.
    expect(await cleanAbandonedUploads(t.app.db, t.app.storage, quiet, now)).toEqual({ direct: 0, streamed: 0, temporaries: 0 });
  });
});
