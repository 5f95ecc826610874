// Files and folders (issue 3/6), and uploads in progress.
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

export interface FoldersTable {
  id: string;
  owner_id: string;
  /** NULL: at the user's root. */
  parent_id: string | null;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface FilesTable {
  id: string;
  owner_id: string;
  /** NULL: at the user's root. */
  folder_id: string | null;
  /** Display name only; never part of a storage key. */
  name: string;
  size: number;
  content_type: string;
  checksum_sha256: string | null;
  /** `users/<owner_id>/files/<id>` */
  storage_key: string;
  status: 'pending' | 'ready';
  /** Records in the file read as `row_count_format` (migration 017); NULL unless `row_count_state` is 'counted'. */
  row_count: number | null;
  row_count_format: string | null;
  /** NULL: not counted yet; 'counted'; 'unknown': not countable cheaply, not tried again. */
  row_count_state: 'counted' | 'unknown' | null;
  created_at: string;
  updated_at: string;
}

export interface PendingUploadsTable {
  id: string;
  owner_id: string;
  folder_id: string | null;
  name: string;
  /** Declared by the client; the stored object must match it. */
  size: number;
  checksum_sha256: string | null;
  storage_key: string;
  /** S3 multipart upload, when the file goes up in presigned parts. */
  multipart_upload_id: string | null;
  part_size: number | null;
  created_at: string;
  expires_at: string;
}
