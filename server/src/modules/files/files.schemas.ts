import { Type, type Static } from '@sinclair/typebox';
import { Id, Notices, pageFields, StringEnum } from '../../http/common.schemas';

// Shapes of the Files calls (spec §7). A folder id of `root` (or no folder id) means the user's
// top level, which is not a row of its own.

const Timestamp = Type.String({ format: 'date-time' });
const Sha256 = Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'SHA-256 of the bytes, hex' });
/** A name someone typed; the service also refuses separators, `:`, `..`, control characters and lone surrogates. */
const Name = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' });
/** A folder to put things in: its id, or null / `root` for the top level. */
const FolderRef = Type.Union([Id, Type.Null()], { description: 'A folder id; null or "root" for the top level' });

export const FileOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  folder_id: Type.Union([Type.String(), Type.Null()]),
  size: Type.Integer({ description: 'bytes' }),
  content_type: Type.String(),
  checksum_sha256: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type FileOut = Static<typeof FileOut>;

export const FolderOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  parent_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type FolderOut = Static<typeof FolderOut>;

/** The folders from the top level down to the one holding the file (empty: the top level). */
const FolderPath = Type.Array(Type.Object({ id: Type.String(), name: Type.String() }));

/** One file and where it is: what a step's settings show for the file they name. */
export const FileDetailOut = Type.Object({ ...FileOut.properties, path: FolderPath });
export type FileDetailOut = Static<typeof FileDetailOut>;

export const FileWithNotices = Type.Object({ ...FileOut.properties, ...Notices });
export const FolderWithNotices = Type.Object({ ...FolderOut.properties, ...Notices });

export const UploadQuery = Type.Object({
  folder_id: Type.Optional(Type.String({ maxLength: 64, description: 'Target folder; absent, empty or "root" for the top level' })),
});
export type UploadQuery = Static<typeof UploadQuery>;

export const UploadOut = Type.Object({ items: Type.Array(FileOut), ...Notices });
export type UploadOut = Static<typeof UploadOut>;

export const IdParams = Type.Object({ id: Id });
export const FileIdParams = Type.Object({ fileId: Id });
export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 2048 }) });

export const PrepareUploadIn = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 1024, description: 'The file name as the browser has it; checked like every name (422 at ["body", "name"])' }),
    size: Type.Integer({ minimum: 0, description: 'Exact size in bytes; the stored object must match' }),
    folder_id: Type.Optional(FolderRef),
    checksum_sha256: Type.Optional(Sha256),
  },
  { additionalProperties: false },
);
export type PrepareUploadIn = Static<typeof PrepareUploadIn>;

export const PrepareUploadOut = Type.Object({
  upload_id: Type.String(),
  /** Single PUT of the whole file (parts is null), or one PUT per part (url is null). */
  method: Type.Literal('PUT'),
  url: Type.Union([Type.String(), Type.Null()], { description: 'Absolute (S3) or a path on this server (local storage)' }),
  headers: Type.Record(Type.String(), Type.String()),
  part_size: Type.Union([Type.Integer(), Type.Null()]),
  parts: Type.Union([Type.Array(Type.Object({ part_number: Type.Integer(), url: Type.String() })), Type.Null()]),
  expires_at: Timestamp,
});
export type PrepareUploadOut = Static<typeof PrepareUploadOut>;

export const ConfirmUploadIn = Type.Object(
  {
    upload_id: Id,
    checksum_sha256: Type.Optional(Sha256),
    /** Multipart uploads: the ETag header S3 answered for each part. */
    parts: Type.Optional(
      Type.Array(Type.Object({ part_number: Type.Integer({ minimum: 1, maximum: 10000 }), etag: Type.String({ minLength: 1, maxLength: 200 }) }), {
        maxItems: 10000,
      }),
    ),
  },
  { additionalProperties: false },
);
export type ConfirmUploadIn = Static<typeof ConfirmUploadIn>;

export const DirectUploadOut = Type.Object({ size: Type.Integer() });

export const MoveFileIn = Type.Object({ folder_id: FolderRef }, { additionalProperties: false });
export type MoveFileIn = Static<typeof MoveFileIn>;

export const RenameFileIn = Type.Object({ name: Name }, { additionalProperties: false });
export type RenameFileIn = Static<typeof RenameFileIn>;

export const DownloadQuery = Type.Object({
  disposition: Type.Optional(StringEnum(['attachment', 'inline'], { default: 'attachment', description: 'inline shows images, PDF and text in the browser' })),
});
export type DownloadQuery = Static<typeof DownloadQuery>;

export const BulkDownloadIn = Type.Object(
  {
    file_ids: Type.Array(Id, { maxItems: 10000, default: [] }),
    folder_ids: Type.Array(Id, { maxItems: 1000, default: [] }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Name of the zip (default files.zip)' })),
  },
  { additionalProperties: false },
);
export type BulkDownloadIn = Static<typeof BulkDownloadIn>;

export const FolderSort = StringEnum(['name', 'size', 'created_at', 'updated_at']);

export const FolderQuery = Type.Object({
  ...pageFields({ size: 100, maxSize: 500 }),
  sort: Type.Optional(FolderSort),
  order: Type.Optional(StringEnum(['asc', 'desc'])),
});
export type FolderQuery = Static<typeof FolderQuery>;

export const FolderEntry = Type.Union([
  Type.Object({ type: Type.Literal('folder'), ...FolderOut.properties }),
  Type.Object({ type: Type.Literal('file'), ...FileOut.properties }),
]);
export type FolderEntry = Static<typeof FolderEntry>;

export const FolderContentsOut = Type.Object({
  /** null for the top level. */
  folder: Type.Union([FolderOut, Type.Null()]),
  /** Breadcrumbs: top-level folder first, this folder last (empty at the top level). */
  path: FolderPath,
  /** Folders first, then files, paged together. */
  items: Type.Array(FolderEntry),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
  folder_count: Type.Integer(),
  file_count: Type.Integer(),
  storage: Type.Object({ used_bytes: Type.Integer(), quota_bytes: Type.Integer(), max_file_bytes: Type.Integer() }),
});
export type FolderContentsOut = Static<typeof FolderContentsOut>;

export const CreateFolderIn = Type.Object(
  {
    name: Name,
    parent_id: Type.Optional(FolderRef),
    on_conflict: Type.Optional(
      StringEnum(['error', 'rename', 'reuse'], {
        default: 'error',
        description: 'When the name is taken: 409 (error), a numbered name (rename), or answer the existing folder (reuse, for folder uploads)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateFolderIn = Static<typeof CreateFolderIn>;

export const RenameFolderIn = Type.Object({ folder_id: Id, name: Name }, { additionalProperties: false });
export type RenameFolderIn = Static<typeof RenameFolderIn>;

export const DeletedOut = Type.Object({
  deleted_files: Type.Integer(),
  deleted_folders: Type.Integer(),
  freed_bytes: Type.Integer(),
  ...Notices,
});
export type DeletedOut = Static<typeof DeletedOut>;
