import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

// The files API as the files tests call it: multipart bodies as a browser sends them, and a
// signed-in user's calls.

export const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export interface Part {
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
export function client(app: FastifyInstance, auth: Record<string, string>) {
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
