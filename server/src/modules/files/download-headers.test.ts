import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';

/** A real one-page PDF whose page runs JavaScript when opened: what the sandbox is for. */
const pdfWithScript = [
  '%PDF-1.4',
  '1 0 obj << /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (app.alert\\(document.domain\\)) >> >> endobj',
  '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
  '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
  'trailer << /Root 1 0 R >>',
  '%%EOF',
].join('\n');

function multipart(name: string, data: string | Buffer) {
  const head = `--b\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), Buffer.from(data), Buffer.from('\r\n--b--\r\n')]),
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
  };
}

describe('download headers', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    auth = (await signedInUser(t.app)).auth;
  });
  afterAll(() => t.close());

  async function uploaded(name: string, data: string | Buffer): Promise<string> {
    const body = multipart(name, data);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/files/', headers: { ...auth, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(201);
    return res.json().items[0].id;
  }
  const download = (id: string, query = '') => t.app.inject({ url: `/api/v1/files/files/${id}/download${query}`, headers: auth });

  it('shows a PDF inline only inside a sandbox (no scripts, opaque origin), like every other download', async () => {
    const id = await uploaded('invoice.pdf', pdfWithScript);
    for (const query of ['?disposition=inline', '']) {
      const res = await download(id, query);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toMatch(query ? /^inline;/ : /^attachment;/);
      const csp = String(res.headers['content-security-policy']).split(/;\s*/);
      expect(csp).toEqual(expect.arrayContaining(["default-src 'none'", 'sandbox']));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    const ranged = await t.app.inject({ url: `/api/v1/files/files/${id}/download?disposition=inline`, headers: { ...auth, range: 'bytes=0-3' } });
    expect([ranged.statusCode, ranged.body, ranged.headers['content-security-policy']]).toEqual([206, '%PDF', expect.stringContaining('sandbox')]);
  });

  it('sandboxes images and text the same way', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    for (const id of [await uploaded('notes.txt', 'plain words'), await uploaded('logo.png', png)]) {
      const res = await download(id, '?disposition=inline');
      expect(res.headers['content-disposition']).toMatch(/^inline;/);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
    }
  });
});
