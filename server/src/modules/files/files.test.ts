import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { cleanAbandonedUploads } from '../../jobs/abandoned-uploads';
import type { Log } from '../../lib/logger';
import { unzip } from '../../test/zip';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { startS3Server, type TestS3 } from '../../test/s3-server';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Part {
  name: string;
  data: Buffer | string;
  /** A raw Content-Disposition filename parameter instead of filename="name". */
  rawFilename?: string;
}

/** A multipart/form-data body, as a browser sends it. */
export function multipart(parts: Part[]) {
  const boundary = `----stepwise${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.rawFilename ?? `filename="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${filename}\r\nContent-Type: text/html\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The API as a signed-in user calls it. */
function client(app: FastifyInstance, auth: Record<string, string>) {
  return {
    upload: (parts: Part[], folderId?: string) => {
      const body = multipart(parts);
      return app.inject({
        method: 'POST',
        url: `/api/v1/files/${folderId ? `?folder_id=${folderId}` : ''}`,
        headers: { ...auth, ...body.headers },
        payload: body.payload,
      });
    },
    call: (method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
      app.inject({ method: method as 'GET', url: `/api/v1/files${url}`, headers: { ...auth, ...headers }, payload }),
    folder: async (name: string, parent?: string | null) => {
      const res = await app.inject({ method: 'POST', url: '/api/v1/files/folders', headers: auth, payload: { name, parent_id: parent ?? null } });
      if (res.statusCode !== 201) throw new Error(res.body);
      return res.json() as { id: string; name: string };
    },
  };
}

describe.each(['local', 's3'] as const)('files on %s storage', (backend) => {
  let t: TestApp;
  let s3: TestS3 | null = null;
  beforeAll(async () => {
    if (backend === 's3') s3 = await startS3Server();
    t = await createTestApp(s3?.env ?? {});
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
  });

  it('uploads several files in one request and gives back identical bytes', async () => {
    const { auth } = await signedInUser(t.app);
    const api = client(t.app, auth);
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(70_000)]);
    const csv = 'name,age\nAda,36\n报告,1\n';
    const res = await api.upload([
      { name: 'picture.dat', data: png },
      { name: 'people.csv', data: csv },
    ]);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('2 file(s) uploaded.');
    expect(body.items).toEqual([
      expect.objectContaining({ name: 'picture.dat', folder_id: null, size: png.length, content_type: 'image/png', checksum_sha256: sha(png) }),
      expect.objectContaining({ name: 'people.csv', size: Buffer.byteLength(csv), content_type: 'text/csv', checksum_sha256: sha(Buffer.from(csv)) }),
    ]);

    const download = await api.call('GET', `/files/${body.items[0].id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(png)).toBe(true);
    expect(download.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(png.length),
      'accept-ranges': 'bytes',
      'content-disposition': `attachment; filename="picture.dat"; filename*=UTF-8''picture.dat`,
      'x-content-type-options': 'nosniff',
    });
    const text = await api.call('GET', `/files/${body.items[1].id}/download?disposition=inline`);
    expect(text.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(text.headers['content-disposition']).toMatch(/^inline;/);
    expect(text.body).toBe(csv);
  });

  it('gives a taken name a numbered suffix', async () => {
    const api = client(t.app, (await signedInUser(t.app)).auth);
    const names = [];
    for (let i = 0; i < 3; i++) names.push((await api.upload([{ name: 'report.csv', data: `v${i}` }])).json().items[0].name);
    expect(names).toEqual(['report.csv', 'report (1).csv', 'report (2).csv']);
    const same = await api.upload([
      { name: 'a.txt', data: '1' },
      { name: 'a.txt', data: '2' },
    ]);
    expect(same.json().items.map((f: { name: string }) => f.name)).toEqual(['a.txt', 'a (1).txt']);
  });

  it('keeps traversal attempts inside the user’s own space', async () => {
    const { auth, user } = await signedInUser(t.app);
    const api = client(t.app, auth);
    const attempts: Part[] = [
      { name: '../../../../etc/passwd', data: 'a' },
      { name: '/etc/hosts', data: 'b' },
      { name: '..\\..\\boot.ini', data: 'c' },
      { name: 'x', rawFilename: `filename*=UTF-8''..%2F..%2F..%2Fescape.txt`, data: 'd' },
      { name: '%2e%2e%2f%2e%2e%2fencoded.txt', data: 'e' },
      { name: '\uFF0E\uFF0E\uFF0Funicode.txt', data: 'f' },
      { name: '..\u2215..\u2215slash.txt', data: 'g' },
      { name: '..', data: 'h' },
      { name: 'C:', data: 'i' },
      { name: 'D:evil.txt', data: 'j' },
      { name: 'nul\u0001.txt', data: 'k' },
    ];
    // Each is refused (422 at the part's field) or kept under a plain name; none reaches a path.
    const stored: string[] = [];
    for (const attempt of attempts) {
      const res = await api.upload([attempt]);
      expect([attempt.name, res.statusCode]).toEqual([attempt.name, expect.any(Number)]);
      if (res.statusCode === 422) {
        expect(res.json()).toEqual({ errors: [{ msg: expect.any(String), loc: ['body', 'file'] }] });
      } else {
        expect([attempt.name, res.statusCode]).toEqual([attempt.name, 201]);
        stored.push(res.json().items[0].name);
      }
    }
    // The multipart parser keeps only a filename's last part; what is left is checked like a typed name.
    expect(stored).toEqual(['passwd', 'hosts', 'boot.ini', 'escape.txt', '%2e%2e%2f%2e%2e%2fencoded.txt']);
    for (const name of stored) expect(name).not.toMatch(/[/\\:]|\.\./);
    // Every object is under the user's own prefix, named by id.
    const keys: string[] = [];
    for await (const o of t.app.storage.list(`users/${user.id}/`)) keys.push(o.key);
    expect(keys).toHaveLength(stored.length);
    for (const key of keys) expect(key).toMatch(new RegExp(`^users/${user.id}/files/[0-9a-f-]{36}$`));
    if (backend === 'local') {
      expect(fs.existsSync(path.join(t.dataDir, 'etc'))).toBe(false);
      expect(fs.readdirSync(t.dataDir).sort()).toEqual(expect.not.arrayContaining(['escape.txt', 'passwd', 'boot.ini']));
    }
    // Typed names are refused rather than changed.
    for (const name of ['../x', 'a/b', '..', 'a\\b', 'x\uFF0Fy', 'C:', 'D:evil.txt', 'lone\uD800']) {
      const created = await api.call('POST', '/folders', { name });
      expect([name, created.statusCode]).toEqual([name, 422]);
      expect(created.json().errors).toEqual([{ msg: expect.stringMatching(/cannot be used/), loc: ['body', 'name'] }]);
    }
    const [file] = (await api.upload([{ name: 'plain.txt', data: 'p' }])).json().items;
    for (const name of ['../../passwd', 'D:evil.txt', 'bad\uDC00']) {
      const renamed = await api.call('PUT', `/files/${file.id}/rename`, { name });
      expect([name, renamed.statusCode, renamed.json().errors[0].loc]).toEqual([name, 422, ['body', 'name']]);
    }
  });

  it('creates, lists, renames folders; moves and renames files', async () => {
    const api = client(t.app, (await signedInUser(t.app)).auth);
    const reports = await api.folder('Reports');
    const q3 = await api.folder('Q3', reports.id);
    expect(q3).toMatchObject({ name: 'Q3', parent_id: reports.id, message: 'Folder "Q3" created.' });
    expect((await api.call('POST', '/folders', { name: 'Reports' })).statusCode).toBe(409);
    expect((await api.call('POST', '/folders', { name: 'Reports', on_conflict: 'rename' })).json().name).toBe('Reports (1)');
    const reused = await api.call('POST', '/folders', { name: 'Reports', on_conflict: 'reuse' });
    expect([reused.statusCode, reused.json().id]).toEqual([200, reports.id]);

    const [b, a] = (
      await api.upload(
        [
          { name: 'b.csv', data: 'x' },
          { name: 'a.csv', data: 'yy' },
        ],
        q3.id,
      )
    ).json().items;
    await api.folder('Sub', q3.id);
    const contents = await api.call('GET', `/folders/${q3.id}?page=1&page_size=2`);
    expect(contents.statusCode).toBe(200);
    expect(contents.json()).toMatchObject({
      folder: { id: q3.id, name: 'Q3', parent_id: reports.id },
      path: [
        { id: reports.id, name: 'Reports' },
        { id: q3.id, name: 'Q3' },
      ],
      items: [
        { type: 'folder', name: 'Sub' },
        { type: 'file', name: 'a.csv', size: 2 },
      ],
      total: 3,
      page: 1,
      page_size: 2,
      folder_count: 1,
      file_count: 2,
      storage: { used_bytes: 3, quota_bytes: 10 * 1024 ** 3, max_file_bytes: 5 * 1024 ** 3 },
    });
    expect((await api.call('GET', `/folders/${q3.id}?page=2&page_size=2`)).json().items.map((i: { name: string }) => i.name)).toEqual(['b.csv']);
    expect((await api.call('GET', `/folders/${q3.id}?sort=size&order=desc`)).json().items.map((i: { name: string }) => i.name)).toEqual([
      'Sub',
      'a.csv',
      'b.csv',
    ]);
    const root = (await api.call('GET', '/folders/root')).json();
    expect(root).toMatchObject({ folder: null, path: [], folder_count: 2 });
    // One file by id, with the folders it sits in: what a step's settings show for the file they name.
    expect((await api.call('GET', `/files/${a.id}`)).json()).toMatchObject({
      id: a.id,
      name: 'a.csv',
      folder_id: q3.id,
      size: 2,
      checksum_sha256: a.checksum_sha256,
      path: [
        { id: reports.id, name: 'Reports' },
        { id: q3.id, name: 'Q3' },
      ],
    });
    const [top] = (await api.upload([{ name: 'top.csv', data: 't' }])).json().items;
    expect((await api.call('GET', `/files/${top.id}`)).json()).toMatchObject({ id: top.id, name: 'top.csv', folder_id: null, path: [] });

    // Rename: a taken name is refused; move: a taken name gets a suffix.
    expect((await api.call('PUT', `/files/${a.id}/rename`, { name: 'b.csv' })).statusCode).toBe(409);
    const renamed = await api.call('PUT', `/files/${a.id}/rename`, { name: '  final.csv ' });
    expect(renamed.json()).toMatchObject({ id: a.id, name: 'final.csv', message: 'Renamed.' });
    await api.upload([{ name: 'b.csv', data: 'root copy' }]);
    const moved = await api.call('PUT', `/files/${b.id}/move`, { folder_id: null });
    expect(moved.json()).toMatchObject({ id: b.id, folder_id: null, name: 'b (1).csv' });
    expect(moved.json().message).toMatch(/renamed to "b \(1\)\.csv"/);
    const back = await api.call('PUT', `/files/${b.id}/move`, { folder_id: reports.id });
    expect(back.json()).toMatchObject({ folder_id: reports.id, name: 'b (1).csv', message: 'File moved.' });

    const folderRenamed = await api.call('PUT', '/folders/rename', { folder_id: q3.id, name: 'Quarter 3' });
    expect(folderRenamed.json()).toMatchObject({ id: q3.id, name: 'Quarter 3' });
    expect((await api.call('PUT', '/folders/rename', { folder_id: q3.id, name: 'Sub' })).statusCode).toBe(200); // different parent
    await api.folder('Other', reports.id);
    expect((await api.call('PUT', '/folders/rename', { folder_id: q3.id, name: 'Other' })).statusCode).toBe(409);
  });

  it('sorts names without regard to case, folders and files alike', async () => {
    const api = client(t.app, (await signedInUser(t.app)).auth);
    const box = await api.folder('Box');
    await api.folder('Beta', box.id);
    await api.folder('alpha', box.id);
    await api.upload(
      [
        { name: 'Quarterly.csv', data: 'q' },
        { name: 'big.bin', data: 'b' },
        { name: 'apple.txt', data: 'a' },
      ],
      box.id,
    );
    const names = async (q: string) => (await api.call('GET', `/folders/${box.id}${q}`)).json().items.map((i: { name: string }) => i.name);
    expect(await names('')).toEqual(['alpha', 'Beta', 'apple.txt', 'big.bin', 'Quarterly.csv']);
    expect(await names('?sort=name&order=desc')).toEqual(['Beta', 'alpha', 'Quarterly.csv', 'big.bin', 'apple.txt']);
  });

  it('serves byte ranges: 206 with Content-Range, 416 outside the file', async () => {
    const api = client(t.app, (await signedInUser(t.app)).auth);
    const data = Buffer.from('0123456789abcdefghij');
    const file = (await api.upload([{ name: '报告 2024.txt', data }])).json().items[0];
    const url = `/files/${file.id}/download`;
    const part = await api.call('GET', url, undefined, { range: 'bytes=2-5' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('2345');
    expect(part.headers['content-range']).toBe('bytes 2-5/20');
    expect(part.headers['content-length']).toBe('4');
    const tail = await api.call('GET', url, undefined, { range: 'bytes=-3' });
    expect([tail.statusCode, tail.body]).toEqual([206, 'hij']);
    const open = await api.call('GET', url, undefined, { range: 'bytes=15-' });
    expect([open.statusCode, open.body, open.headers['content-range']]).toEqual([206, 'fghij', 'bytes 15-19/20']);
    const outside = await api.call('GET', url, undefined, { range: 'bytes=20-30' });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe('bytes */20');
    expect(outside.json().detail).toBe('The requested range is outside the file.');
    const whole = await api.call('GET', url, undefined, { range: 'bytes=0-1,4-5' });
    expect([whole.statusCode, whole.body]).toEqual([200, data.toString()]);
    expect(whole.headers['content-disposition']).toBe(`attachment; filename="__ 2024.txt"; filename*=UTF-8''%E6%8A%A5%E5%91%8A%202024.txt`);
  });

  it('zips chosen files and folders with their structure', async () => {
    const api = client(t.app, (await signedInUser(t.app)).auth);
    const data = await api.folder('Data');
    const raw = await api.folder('raw', data.id);
    await api.folder('empty', data.id);
    const big = randomBytes(300_000);
    await api.upload([{ name: 'top.csv', data: 'a,b\n' }], data.id);
    await api.upload(
      [
        { name: 'blob.bin', data: big },
        { name: 'rows.csv', data: 'x\n1\n' },
      ],
      raw.id,
    );
    const loose = (await api.upload([{ name: 'notes.txt', data: 'hello' }])).json().items[0];

    const res = await api.call('POST', '/bulk-download', { file_ids: [loose.id], folder_ids: [data.id] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/filename="files.zip"/);
    const entries = await unzip(res.rawPayload);
    expect([...entries.keys()].sort()).toEqual(['Data/empty/', 'Data/raw/blob.bin', 'Data/raw/rows.csv', 'Data/top.csv', 'notes.txt']);
    expect((entries.get('Data/raw/blob.bin') as Buffer).equals(big)).toBe(true);
    expect(entries.get('notes.txt')!.toString()).toBe('hello');

    const one = await api.call('POST', '/bulk-download', { folder_ids: [raw.id] });
    expect(one.headers['content-disposition']).toMatch(/filename="raw.zip"/);
    expect([...(await unzip(one.rawPayload)).keys()].sort()).toEqual(['raw/blob.bin', 'raw/rows.csv']);
    expect((await api.call('POST', '/bulk-download', {})).statusCode).toBe(422);
  });

  it('zips names stored before names were checked, and refuses bad zip names and empty selections with errors', async () => {
    const api = client(t.app, (await signedInUser(t.app)).auth);
    const folder = await api.folder('Legacy');
    const [a, b] = (
      await api.upload(
        [
          { name: 'a.txt', data: 'A' },
          { name: 'b.txt', data: 'B' },
        ],
        folder.id,
      )
    ).json().items;
    // As an older version could store them.
    await t.app.db.updateTable('files').set({ name: 'C:evil.txt' }).where('id', '=', a.id).execute();
    await t.app.db.updateTable('files').set({ name: 'lone\uD800.txt' }).where('id', '=', b.id).execute();
    await t.app.db.updateTable('folders').set({ name: 'D:\uDC00' }).where('id', '=', folder.id).execute();
    const res = await api.call('POST', '/bulk-download', { folder_ids: [folder.id] });
    expect(res.statusCode).toBe(200);
    // The database may keep a lone surrogate as one or more U+FFFD; either way the headers are sound.
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="D_+\.zip"; filename\*=UTF-8''D_(%EF%BF%BD)+\.zip$/);
    const entries = [...(await unzip(res.rawPayload)).keys()].sort();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatch(/^D_\uFFFD+\/C_evil\.txt$/);
    expect(entries[1]).toMatch(/^D_\uFFFD+\/lone\uFFFD+\.txt$/);
    const single = await api.call('GET', `/files/${b.id}/download`);
    expect(single.statusCode).toBe(200);
    expect(single.headers['content-disposition']).toMatch(/filename\*=UTF-8''lone(%EF%BF%BD)+\.txt$/);

    for (const name of ['C:', 'D:evil', '../up', 'bad\uD800']) {
      const refused = await api.call('POST', '/bulk-download', { folder_ids: [folder.id], name });
      expect([name, refused.statusCode, refused.json()]).toEqual([name, 422, { errors: [{ msg: expect.any(String), loc: ['body', 'name'] }] }]);
    }
    const empty = await api.call('POST', '/bulk-download', { file_ids: [], folder_ids: [] });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({ errors: [{ msg: expect.any(String), loc: ['body', 'file_ids'] }] });
  });

  it('refuses bad names of direct uploads at the field', async () => {
    const api = client(t.app, (await signedInUser(t.app)).auth);
    for (const name of ['C:', 'D:evil.txt', '..', 'a\\b', 'lone\uD800', 'y'.repeat(300)]) {
      const res = await api.call('POST', '/prepare-upload', { name, size: 1 });
      expect([name.slice(0, 20), res.statusCode, res.json()]).toEqual([
        name.slice(0, 20),
        422,
        { errors: [{ msg: expect.any(String), loc: ['body', 'name'] }] },
      ]);
    }
  });

  it('cuts a zip short when a stored object is missing, and keeps serving', async () => {
    const api = client(t.app, (await signedInUser(t.app)).auth);
    const [kept, lost] = (
      await api.upload([
        { name: 'kept.txt', data: 'still here' },
        { name: 'lost.bin', data: randomBytes(50_000) },
      ])
    ).json().items;
    const row = await t.app.db.selectFrom('files').select('storage_key').where('id', '=', lost.id).executeTakeFirstOrThrow();
    await t.app.storage.delete(row.storage_key);

    const res = await api.call('POST', '/bulk-download', { file_ids: [kept.id, lost.id] }).catch((err: Error) => err);
    // The headers went out with the first entry, so the only honest signal left is an incomplete zip.
    if (!(res instanceof Error)) await expect(unzip(res.rawPayload)).rejects.toThrow();
    const again = await api.call('GET', `/files/${kept.id}/download`);
    expect([again.statusCode, again.body]).toEqual([200, 'still here']);
  });

  it('deletes a folder with everything below it, stored objects included', async () => {
    const { auth, user } = await signedInUser(t.app);
    const api = client(t.app, auth);
    const top = await api.folder('top');
    const mid = await api.folder('mid', top.id);
    const leaf = await api.folder('leaf', mid.id);
    await api.upload([{ name: '1.txt', data: '1' }], top.id);
    await api.upload(
      [
        { name: '2.txt', data: '22' },
        { name: '3.txt', data: '333' },
      ],
      leaf.id,
    );
    const kept = (await api.upload([{ name: 'kept.txt', data: 'k' }])).json().items[0];

    const res = await api.call('DELETE', `/folders/${top.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deleted_files: 3, deleted_folders: 3, freed_bytes: 6, message: 'Folder deleted with 3 folder(s) and 3 file(s).' });
    for (const id of [top.id, mid.id, leaf.id]) expect((await api.call('GET', `/folders/${id}`)).statusCode).toBe(404);
    const keys: string[] = [];
    for await (const o of t.app.storage.list(`users/${user.id}/`)) keys.push(o.key);
    expect(keys).toEqual([`users/${user.id}/files/${kept.id}`]);
    expect((await api.call('GET', '/folders/root')).json()).toMatchObject({ total: 1, storage: { used_bytes: 1 } });

    const del = await api.call('DELETE', `/${kept.id}`);
    expect(del.json()).toMatchObject({ deleted_files: 1, freed_bytes: 1, message: 'File deleted.' });
    expect(await t.app.storage.head(`users/${user.id}/files/${kept.id}`)).toBeNull();
    expect((await api.call('GET', `/files/${kept.id}/download`)).statusCode).toBe(404);

    const events = await t.app.db.selectFrom('usage_events').select(['kind', 'quantity']).where('user_id', '=', user.id).orderBy('created_at').execute();
    expect(events.filter((e) => e.kind === 'storage.upload').reduce((s, e) => s + Number(e.quantity), 0)).toBe(7);
    expect(events.filter((e) => e.kind === 'storage.delete').reduce((s, e) => s + Number(e.quantity), 0)).toBe(7);
  });

  it('answers 404 for another user’s ids on every call, exactly like missing ones', async () => {
    const alice = client(t.app, (await signedInUser(t.app)).auth);
    const bob = client(t.app, (await signedInUser(t.app)).auth);
    const folder = await alice.folder('private');
    const file = (await alice.upload([{ name: 'secret.txt', data: 'secret' }], folder.id)).json().items[0];
    const upload = (await alice.call('POST', '/prepare-upload', { name: 'x.bin', size: 3 })).json();
    const missing = '00000000-0000-4000-8000-000000000000';

    for (const [fileId, folderId, uploadId] of [
      [file.id, folder.id, upload.upload_id],
      [missing, missing, missing],
    ]) {
      const calls = [
        bob.call('GET', `/files/${fileId}`),
        bob.call('GET', `/files/${fileId}/download`),
        bob.call('PUT', `/files/${fileId}/move`, { folder_id: null }),
        bob.call('PUT', `/files/${fileId}/rename`, { name: 'mine.txt' }),
        bob.call('DELETE', `/${fileId}`),
        bob.call('POST', '/bulk-download', { file_ids: [fileId] }),
        bob.call('GET', `/folders/${folderId}`),
        bob.call('DELETE', `/folders/${folderId}`),
        bob.call('PUT', '/folders/rename', { folder_id: folderId, name: 'mine' }),
        bob.call('POST', '/folders', { name: 'inside', parent_id: folderId }),
        bob.call('POST', '/bulk-download', { folder_ids: [folderId] }),
        bob.upload([{ name: 'x.txt', data: 'x' }], folderId),
        bob.call('POST', '/prepare-upload', { name: 'x', size: 1, folder_id: folderId }),
        bob.call('POST', '/confirm-upload', { upload_id: uploadId }),
      ];
      const bodies = (await Promise.all(calls)).map((r) => [r.statusCode, r.json().detail]);
      expect(bodies).toEqual(expect.arrayContaining(bodies.map(() => [404, expect.stringMatching(/^(File|Folder) not found\.$|^This upload was not found/)])));
    }
    // Bob's own file moved into Alice's folder: not found either, and Alice's things are unchanged.
    const own = (await bob.upload([{ name: 'b.txt', data: 'b' }])).json().items[0];
    expect((await bob.call('PUT', `/files/${own.id}/move`, { folder_id: folder.id })).statusCode).toBe(404);
    expect((await alice.call('GET', `/files/${file.id}/download`)).body).toBe('secret');
    expect((await alice.call('GET', `/folders/${folder.id}`)).json()).toMatchObject({ folder: { name: 'private' }, file_count: 1, folder_count: 0 });
  });

  it('direct upload: prepare → PUT → confirm checks size and checksum', async () => {
    const { auth } = await signedInUser(t.app);
    const api = client(t.app, auth);
    const folder = await api.folder('incoming');
    const bytes = randomBytes(200_000);
    const put = async (target: { url: string; headers: Record<string, string> }, body: Buffer) => {
      if (target.url.startsWith('/')) {
        const res = await t.app.inject({ method: 'PUT', url: target.url, headers: target.headers, payload: body });
        return { status: res.statusCode, json: () => res.json() };
      }
      const res = await fetch(target.url, { method: 'PUT', headers: target.headers, body: new Uint8Array(body) });
      return { status: res.status, json: async () => ({}) };
    };

    const prepared = await api.call('POST', '/prepare-upload', { name: 'big.parquet', size: bytes.length, folder_id: folder.id, checksum_sha256: sha(bytes) });
    expect(prepared.statusCode).toBe(201);
    const target = prepared.json();
    expect(target).toMatchObject({ upload_id: expect.any(String), method: 'PUT', url: expect.any(String), parts: null, part_size: null });
    expect(new Date(target.expires_at).getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    // Not uploaded yet.
    expect((await api.call('POST', '/confirm-upload', { upload_id: target.upload_id })).statusCode).toBe(409);
    // Reserved against the quota while open.
    expect((await api.call('GET', '/folders/root')).json().storage.used_bytes).toBe(bytes.length);

    // Wrong bytes of the right size: refused at confirm, and the object is removed.
    const corrupt = Buffer.from(bytes);
    corrupt[1000] ^= 0xff;
    expect((await put(target, corrupt)).status).toBe(200);
    const mismatch = await api.call('POST', '/confirm-upload', { upload_id: target.upload_id });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().detail).toMatch(/checksum does not match/);

    // The same target works again until it expires.
    expect((await put(target, bytes)).status).toBe(200);
    const confirmed = await api.call('POST', '/confirm-upload', { upload_id: target.upload_id, checksum_sha256: sha(bytes).toUpperCase() });
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json()).toMatchObject({ name: 'big.parquet', folder_id: folder.id, size: bytes.length, checksum_sha256: sha(bytes) });
    const download = await api.call('GET', `/files/${confirmed.json().id}/download`);
    expect(download.rawPayload.equals(bytes)).toBe(true);
    // Spent.
    expect((await api.call('POST', '/confirm-upload', { upload_id: target.upload_id })).statusCode).toBe(404);
    expect((await api.call('GET', '/folders/root')).json().storage.used_bytes).toBe(bytes.length);

    // A different size than declared is refused.
    const small = (await api.call('POST', '/prepare-upload', { name: 'small.bin', size: 10 })).json();
    const tooBig = await put(small, Buffer.alloc(11));
    if (backend === 'local') {
      expect(tooBig.status).toBe(413);
      expect((await put(small, Buffer.alloc(9))).status).toBe(400);
    } else if (tooBig.status === 200) {
      // AWS refuses a Content-Length other than the signed one (403); s3rver stores it, and confirm refuses it.
      const mismatched = await api.call('POST', '/confirm-upload', { upload_id: small.upload_id });
      expect([mismatched.statusCode, mismatched.json().detail]).toEqual([400, 'The uploaded file has 11 bytes instead of the 10 announced. Upload it again.']);
    } else {
      expect(tooBig.status).toBe(403);
    }
  });

  it('cleans up abandoned direct uploads', async () => {
    const { auth } = await signedInUser(t.app);
    const api = client(t.app, auth);
    const target = (await api.call('POST', '/prepare-upload', { name: 'left.bin', size: 4 })).json();
    if (target.url.startsWith('/')) await t.app.inject({ method: 'PUT', url: target.url, payload: Buffer.from('abcd'), headers: target.headers });
    else await fetch(target.url, { method: 'PUT', body: 'abcd' });
    const row = await t.app.db.selectFrom('pending_uploads').selectAll().where('id', '=', target.upload_id).executeTakeFirstOrThrow();
    expect(await t.app.storage.head(row.storage_key)).toMatchObject({ size: 4 });

    const quiet: Log = { debug() {}, info() {}, warn() {}, error() {} };
    expect(await cleanAbandonedUploads(t.app.db, t.app.storage, quiet, new Date())).toEqual({ direct: 0, streamed: 0, temporaries: 0 });
    const later = new Date(Date.now() + 3 * 3_600_000);
    expect((await cleanAbandonedUploads(t.app.db, t.app.storage, quiet, later)).direct).toBeGreaterThanOrEqual(1);
    expect(await t.app.storage.head(row.storage_key)).toBeNull();
    expect((await api.call('POST', '/confirm-upload', { upload_id: target.upload_id })).statusCode).toBe(404);
  });
});

describe('files: limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ FILE_UPLOAD_MAX_BYTES: '1000', STORAGE_QUOTA_BYTES: '2500' });
  });
  afterAll(() => t.close());

  it('refuses a file over the size limit with 413 and stores nothing of it', async () => {
    const { auth, user } = await signedInUser(t.app);
    const api = client(t.app, auth);
    const ok = await api.upload([{ name: 'fits.bin', data: Buffer.alloc(1000) }]);
    expect(ok.statusCode).toBe(201);
    const res = await api.upload([{ name: 'huge.bin', data: Buffer.alloc(1001) }]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: '"huge.bin" is too large. Files can be at most 1000 bytes.' });
    const body = multipart([{ name: 'huge.bin', data: Buffer.alloc(5000) }]);
    const zh = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files/',
      headers: { ...auth, ...body.headers, 'accept-language': 'zh-CN' },
      payload: body.payload,
    });
    expect([zh.statusCode, zh.json().detail]).toEqual([413, '“huge.bin”太大了，单个文件最大为 1000 bytes。']);
    const listing = (await api.call('GET', '/folders/root')).json();
    expect(listing.items.map((i: { name: string }) => i.name)).toEqual(['fits.bin']);
    const keys: string[] = [];
    for await (const o of t.app.storage.list(`users/${user.id}/`)) keys.push(o.key);
    expect(keys).toHaveLength(1);
    expect((await api.call('POST', '/prepare-upload', { name: 'huge.bin', size: 1001 })).statusCode).toBe(413);
  });

  it('refuses what would exceed the storage quota with 409', async () => {
    const api = client(t.app, (await signedInUser(t.app)).auth);
    expect(
      (
        await api.upload([
          { name: '1', data: Buffer.alloc(1000) },
          { name: '2', data: Buffer.alloc(1000) },
        ])
      ).statusCode,
    ).toBe(201);
    const over = await api.upload([{ name: '3', data: Buffer.alloc(600) }]);
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toBe('Not enough storage space: you are using 2 KB of your 2.4 KB. Delete some files and try again.');
    expect((await api.call('POST', '/prepare-upload', { name: 'x', size: 501 })).statusCode).toBe(409);
    expect((await api.upload([{ name: '3', data: Buffer.alloc(500) }])).statusCode).toBe(201);
    expect((await api.call('GET', '/folders/root')).json().storage).toEqual({ used_bytes: 2500, quota_bytes: 2500, max_file_bytes: 1000 });
  });

  it('wants multipart/form-data', async () => {
    const { auth } = await signedInUser(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/files/', headers: auth, payload: { file: 'x' } });
    expect([res.statusCode, res.json().detail]).toEqual([415, 'Send the files as multipart/form-data.']);
    const empty = multipart([]);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/files', headers: { ...auth, ...empty.headers }, payload: empty.payload })).statusCode).toBe(422);
  });

  it('refuses forged, expired and spent direct-upload links', async () => {
    const { auth } = await signedInUser(t.app);
    const target = (await client(t.app, auth).call('POST', '/prepare-upload', { name: 'x', size: 3 })).json();
    const [id, expiry, mac] = target.url.split('/').pop().split('.');
    const forged = await t.app.inject({ method: 'PUT', url: `/api/v1/files/direct-upload/${id}.${Number(expiry) + 86400}.${mac}`, payload: Buffer.alloc(3) });
    expect([forged.statusCode, forged.json().detail]).toEqual([403, 'This upload link is not valid.']);
    const row = await t.app.db.selectFrom('pending_uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const expired = t.app.uploadSigner!.sign(row.storage_key, new Date(Date.now() - 1000));
    const late = await t.app.inject({ method: 'PUT', url: `/api/v1/files/direct-upload/${expired}`, payload: Buffer.alloc(3) });
    expect([late.statusCode, late.json().detail]).toEqual([403, 'This upload link has expired. Start the upload again.']);
    const unknown = t.app.uploadSigner!.sign('users/x/files/00000000-0000-4000-8000-000000000000', new Date(Date.now() + 60_000));
    expect((await t.app.inject({ method: 'PUT', url: `/api/v1/files/direct-upload/${unknown}`, payload: Buffer.alloc(3) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: target.url, payload: Buffer.from('abc') })).statusCode).toBe(200);
    expect((await client(t.app, auth).call('POST', '/confirm-upload', { upload_id: id })).statusCode).toBe(201);
    // Spent: the link no longer leads anywhere.
    expect((await t.app.inject({ method: 'PUT', url: target.url, payload: Buffer.from('abc') })).statusCode).toBe(403);
  });
});
