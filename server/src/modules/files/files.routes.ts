import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { HttpError } from '../../lib/http-error';
import { currentUser } from '../../plugins/authentication';
import {
  BulkDownloadIn,
  ConfirmUploadIn,
  CreateFolderIn,
  DeletedOut,
  DirectUploadOut,
  DownloadQuery,
  FileDetailOut,
  FileIdParams,
  FileWithNotices,
  FolderContentsOut,
  FolderQuery,
  FolderWithNotices,
  IdParams,
  MoveFileIn,
  PrepareUploadIn,
  PrepareUploadOut,
  RenameFileIn,
  RenameFolderIn,
  TokenParams,
  UploadOut,
  UploadQuery,
} from './files.schemas';
import { DirectUploadsService } from './direct-uploads.service';
import { FilesService } from './files.service';
import { FoldersService } from './folders.service';
import { canShowInline, contentDisposition, contentTypeHeader, parseRange } from './http-download';

const tags = ['Files'];
const binary = (description: string) => ({ description, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } });

const filesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const services = { db: app.db, storage: app.storage, signer: app.uploadSigner, config: app.config, log: app.log, jobs: app.jobs };
  const files = new FilesService(services);
  const directUploads = new DirectUploadsService(services);
  const folders = new FoldersService(services);

  // Our own meter enforces FILE_UPLOAD_MAX_BYTES (413 with the file's name); busboy's limit sits
  // one byte above it only as a backstop.
  await app.register(multipart, {
    limits: { fileSize: app.config.fileUploadMaxBytes + 1, files: 1000, fields: 100, fieldSize: 64 * 1024, parts: 1100 },
  });

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Upload one or more files (multipart/form-data, any field name) into a folder',
        description:
          'Streamed to storage as they arrive. A filename with a separator, `:`, `..`, control characters or over 255 characters is refused (422 at the part\'s field; the multipart parser keeps only the last part of a path) and a taken name gets a numbered suffix ("report (1).csv"). The content type is sniffed from the bytes. 413 when a file is larger than FILE_UPLOAD_MAX_BYTES, 409 when the storage quota would be exceeded; files completed before a failing one are kept.',
        consumes: ['multipart/form-data'],
        querystring: UploadQuery,
        response: { 201: UploadOut },
      },
    },
    async (req, reply) => {
      if (!req.isMultipart()) throw new HttpError(415, 'server.files.notMultipart');
      const stored = await files.uploadMany(currentUser(req).id, req.query.folder_id, req.files());
      return reply.code(201).send({ items: stored, message: req.t('server.files.uploaded', { count: stored.length }) });
    },
  );

  app.delete('/:id', { schema: { tags, summary: 'Delete a file', params: IdParams, response: { 200: DeletedOut } } }, async (req) => {
    const { freed } = await files.delete(currentUser(req).id, req.params.id);
    return { deleted_files: 1, deleted_folders: 0, freed_bytes: freed, message: req.t('server.files.fileDeleted') };
  });

  app.post(
    '/prepare-upload',
    {
      schema: {
        tags,
        summary: 'Get a direct upload target for a large file (presigned S3 PUT or parts, or a signed URL on this server)',
        description:
          'Send the bytes with `PUT url` (and `headers`), or for multipart each part with `PUT parts[i].url` keeping the `ETag` answered, then call confirm-upload before `expires_at`. The declared size counts against the quota until then.',
        body: PrepareUploadIn,
        response: { 201: PrepareUploadOut },
      },
    },
    async (req, reply) => reply.code(201).send(await directUploads.prepare(currentUser(req).id, req.body)),
  );

  app.post(
    '/confirm-upload',
    {
      schema: {
        tags,
        summary: 'Check a direct upload (size, SHA-256) and create the file',
        body: ConfirmUploadIn,
        response: { 201: FileWithNotices },
      },
    },
    async (req, reply) => {
      const file = await directUploads.confirm(currentUser(req).id, req.body);
      return reply.code(201).send({ ...file, message: req.t('server.files.uploaded', { count: 1 }) });
    },
  );

  app.get(
    '/files/:id',
    { schema: { tags, summary: 'A file and the folders it sits in (what a step naming the file shows)', params: IdParams, response: { 200: FileDetailOut } } },
    async (req) => files.describe(currentUser(req).id, req.params.id),
  );

  app.put(
    '/files/:id/move',
    {
      schema: {
        tags,
        summary: 'Move a file to another folder (a taken name gets a numbered suffix)',
        params: IdParams,
        body: MoveFileIn,
        response: { 200: FileWithNotices },
      },
    },
    async (req) => {
      const { file, renamed } = await files.move(currentUser(req).id, req.params.id, req.body.folder_id);
      return { ...file, message: req.t(renamed ? 'server.files.movedRenamed' : 'server.files.moved', { name: file.name }) };
    },
  );

  app.put(
    '/files/:id/rename',
    {
      schema: {
        tags,
        summary: 'Rename a file (409 when the name is taken in its folder)',
        params: IdParams,
        body: RenameFileIn,
        response: { 200: FileWithNotices },
      },
    },
    async (req) => ({ ...(await files.rename(currentUser(req).id, req.params.id, req.body.name)), message: req.t('server.files.renamed') }),
  );

  app.get(
    '/files/:fileId/download',
    {
      // The file's bytes as stored: Range answers and Content-Length count them (plugins/compression.ts).
      compress: false,
      schema: {
        tags,
        summary: 'Download a file (supports Range requests)',
        description: 'Answers the bytes with Content-Disposition (RFC 5987 filename*), Accept-Ranges, 206 for a satisfiable Range and 416 otherwise.',
        params: FileIdParams,
        querystring: DownloadQuery,
        response: { 200: binary('The file'), 206: binary('Part of the file') },
      },
    },
    async (req, reply) => {
      const file = await files.requireFile(currentUser(req).id, req.params.fileId);
      const size = Number(file.size);
      const range = parseRange(req.headers.range, size);
      // Opened before any header is set, so a record whose object is lost answers a plain 404.
      const body = range === 'unsatisfiable' ? null : { range, stream: await files.open(file, range) };
      reply.header('accept-ranges', 'bytes').header('etag', `"${file.checksum_sha256}"`).header('x-content-type-options', 'nosniff');
      reply.header('last-modified', new Date(file.updated_at).toUTCString()).header('cache-control', 'private, no-cache');
      if (!body) {
        reply.header('content-range', `bytes */${size}`);
        throw new HttpError(416, 'server.files.rangeNotSatisfiable');
      }
      const inline = req.query.disposition === 'inline' && canShowInline(file.content_type);
      reply
        .header('content-type', contentTypeHeader(file.content_type))
        .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', file.name));
      // What we send is never a page of ours: no scripts, and an opaque origin (sandbox) even if
      // someone opens it directly. PDFs too: a PDF can carry JavaScript, and Chromium's viewer (seen
      // in 156, top level and in an iframe) renders a PDF under this whole policy, bare `sandbox`
      // included. The app's own preview is unaffected either way: it shows a blob URL, which
      // carries none of these headers.
      reply.header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
      if (body.range) {
        reply.code(206).header('content-range', `bytes ${body.range.start}-${body.range.end}/${size}`);
        reply.header('content-length', body.range.end - body.range.start + 1);
      } else {
        reply.header('content-length', size);
      }
      return reply.send(body.stream);
    },
  );

  app.post(
    '/bulk-download',
    {
      schema: {
        tags,
        summary: 'Download chosen files and folders as one zip (streamed; folder structure kept)',
        body: BulkDownloadIn,
        response: { 200: { description: 'A zip archive', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } } },
      },
    },
    async (req, reply) => {
      const { stream, name } = await files.bulkDownload(currentUser(req).id, req.body);
      reply.header('content-type', 'application/zip').header('content-disposition', contentDisposition('attachment', name)).header('cache-control', 'no-store');
      return reply.send(stream);
    },
  );

  app.get(
    '/folders/:id',
    {
      schema: {
        tags,
        summary: 'A folder with one page of its children (folders first, then files); id "root" is the top level',
        params: IdParams,
        querystring: FolderQuery,
        response: { 200: FolderContentsOut },
      },
    },
    async (req) => folders.contents(currentUser(req).id, req.params.id, req.query),
  );

  app.delete(
    '/folders/:id',
    { schema: { tags, summary: 'Delete a folder with everything in it', params: IdParams, response: { 200: DeletedOut } } },
    async (req) => {
      const result = await folders.delete(currentUser(req).id, req.params.id);
      return {
        deleted_files: result.files,
        deleted_folders: result.folders,
        freed_bytes: result.freed,
        message: req.t('server.files.folderDeleted', { files: result.files, folders: result.folders }),
      };
    },
  );

  app.post(
    '/folders',
    {
      schema: {
        tags,
        summary: 'Create a folder (409 when the name is taken, unless on_conflict says rename or reuse)',
        body: CreateFolderIn,
        response: { 200: FolderWithNotices, 201: FolderWithNotices },
      },
    },
    async (req, reply) => {
      const { folder, created } = await folders.create(currentUser(req).id, req.body);
      return reply.code(created ? 201 : 200).send({ ...folder, ...(created ? { message: req.t('server.files.folderCreated', { name: folder.name }) } : {}) });
    },
  );

  app.put(
    '/folders/rename',
    { schema: { tags, summary: 'Rename a folder (409 when the name is taken beside it)', body: RenameFolderIn, response: { 200: FolderWithNotices } } },
    async (req) => ({ ...(await folders.rename(currentUser(req).id, req.body.folder_id, req.body.name)), message: req.t('server.files.renamed') }),
  );

  // The target of prepare-upload on local storage. Public: like a presigned S3 URL, the signed
  // token in the path is the authorisation. Its own scope takes the raw body for any content type.
  await app.register(async (scope) => {
    const direct = scope.withTypeProvider<TypeBoxTypeProvider>();
    direct.removeAllContentTypeParsers();
    direct.addContentTypeParser('*', (_req, _payload, done) => done(null));
    direct.put(
      '/direct-upload/:token',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Receive the bytes of a direct upload on local storage (the URL prepare-upload answered)',
          description:
            'Public, authorised by the HMAC-signed, expiring token in the path, which names the storage key and exact size. Then call confirm-upload.',
          params: TokenParams,
          response: { 200: DirectUploadOut },
        },
      },
      async (req) => {
        const length = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
        return directUploads.accept(req.params.token, req.raw, Number.isFinite(length) ? length : null);
      },
    );
  });
};

export default filesRoutes;
