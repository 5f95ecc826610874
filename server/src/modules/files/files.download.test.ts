import { randomBytes } from 'node:crypto';
import { unzip } from '../../test/zip';
import { filesTestBed, storageBackends } from '../../test/files-testbed';

// Downloads: byte ranges and zips of files and folders, on local and S3-compatible storage.

describe.each(storageBackends)('files on %s storage', (backend) => {
  const t = filesTestBed(backend);

  it('serves byte ranges: 206 with Content-Range, 416 outside the file', async () => {
    const { api } = await t.signedIn();
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
    const { api } = await t.signedIn();
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
    const { api } = await t.signedIn();
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
    const { api } = await t.signedIn();
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
    const { api } = await t.signedIn();
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
});
