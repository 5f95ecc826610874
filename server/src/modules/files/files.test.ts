import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { filesTestBed, storageBackends } from '../../test/files-testbed';
import { sha, type Part } from '../../test/files-client';

// Uploads, names, folders, deleting and ownership, on local and S3-compatible storage.

describe.each(storageBackends)('files on %s storage', (backend) => {
  const t = filesTestBed(backend);

  it('uploads several files in one request and gives back identical bytes', async () => {
    const { api } = await t.signedIn();
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
    const { api } = await t.signedIn();
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
    const { user, api } = await t.signedIn();
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
    const { api } = await t.signedIn();
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
    const { api } = await t.signedIn();
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

  it('deletes a folder with everything below it, stored objects included', async () => {
    const { user, api } = await t.signedIn();
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
    const { api: alice } = await t.signedIn();
    const { api: bob } = await t.signedIn();
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
});
