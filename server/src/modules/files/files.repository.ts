import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, FilesTable } from '../../db/schema';
import type { Db } from '../../db/database';

export type FileRow = FilesTable;
/** A new file: its record count is not known yet (file-row-counts.ts counts it later). */
export type NewFileRow = Omit<FileRow, 'row_count' | 'row_count_format' | 'row_count_state'>;
/** What counting a file found (migration 017). */
export type FileRowCount = Pick<FileRow, 'row_count' | 'row_count_format' | 'row_count_state'>;
export type FileSort = 'name' | 'size' | 'created_at' | 'updated_at';

/** `folder_id = x`, or `IS NULL` for the root (SQL's `= NULL` matches nothing). */
export const inFolder = (column: 'folder_id' | 'parent_id', folderId: string | null) => (eb: ExpressionBuilder<Database, 'files' | 'folders'>) =>
  folderId === null ? eb(sql.ref(column), 'is', null) : eb(sql.ref(column), '=', folderId);

/** `LIKE 'stem%'` with the stem's own % and _ taken literally. */
export const likePrefix = (stem: string) => `${stem.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Listings sort names without regard to case ("big.bin" before "Quarterly.csv"); lower() means
 *  the same on SQLite and PostgreSQL, whatever the database's collation. The id breaks ties. */
export const byName = sql<string>`lower(name)`;

export class FilesRepository {
  constructor(private readonly db: Db) {}

  /** A ready file of this owner; pending uploads and other people's files are not found. */
  findOwned(ownerId: string, id: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).where('status', '=', 'ready').executeTakeFirst();
  }

  findManyOwned(ownerId: string, ids: string[]): Promise<FileRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('files').selectAll().where('id', 'in', ids).where('owner_id', '=', ownerId).where('status', '=', 'ready').execute();
  }

  /** Names in a folder that could collide with `name` or its numbered variants (pending ones too). */
  async namesLike(ownerId: string, folderId: string | null, stem: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('files')
      .select('name')
      .where('owner_id', '=', ownerId)
      .where(inFolder('folder_id', folderId))
      .where(sql<boolean>`name like ${likePrefix(stem)} escape '\\'`)
      .execute();
    return new Set(rows.map((r) => r.name));
  }

  async list(ownerId: string, folderId: string | null, sort: FileSort, order: 'asc' | 'desc', offset: number, limit: number): Promise<FileRow[]> {
    if (limit <= 0) return [];
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where(inFolder('folder_id', folderId))
      .where('status', '=', 'ready')
      .orderBy(sort === 'name' ? byName : sort, order)
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  async count(ownerId: string, folderId: string | null): Promise<number> {
    const row = await this.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', ownerId)
      .where(inFolder('folder_id', folderId))
      .where('status', '=', 'ready')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Every ready file in the given folders (a subtree). */
  inFolders(ownerId: string, folderIds: string[]): Promise<FileRow[]> {
    if (!folderIds.length) return Promise.resolve([]);
    return this.db.selectFrom('files').selectAll().where('owner_id', '=', ownerId).where('folder_id', 'in', folderIds).execute();
  }

  /** Bytes of this owner's ready files. */
  async usedBytes(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('files')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), sql<number>`0`).as('n'))
      .where('owner_id', '=', ownerId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(newRow: NewFileRow): Promise<FileRow> {
    const row: FileRow = { ...newRow, row_count: null, row_count_format: null, row_count_state: null };
    await this.db.insertInto('files').values(row).execute();
    return row;
  }

  /** Keeps what counting the file found; a file's bytes never change, so neither does its count. */
  async setRowCount(id: string, count: FileRowCount): Promise<void> {
    await this.db.updateTable('files').set(count).where('id', '=', id).execute();
  }

  /** Completes a pending upload; false when its row is gone (its folder was deleted meanwhile). */
  async markReady(id: string, changes: Pick<FileRow, 'size' | 'checksum_sha256' | 'content_type'>): Promise<boolean> {
    const result = await this.db
      .updateTable('files')
      .set({ ...changes, status: 'ready', updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async update(id: string, changes: Partial<Pick<FileRow, 'name' | 'folder_id'>>): Promise<void> {
    await this.db
      .updateTable('files')
      .set({ ...changes, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('files').where('id', '=', id).execute();
  }

  /** Deletes many rows, a few hundred ids per statement (SQLite caps bound parameters). */
  async deleteMany(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 500)
      await this.db
        .deleteFrom('files')
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
  }

  /** Up to `limit` ready files of the owner in these folders (a step reading a folder). */
  readyInFolders(ownerId: string, folderIds: string[], limit: number) {
    return this.db
      .selectFrom('files')
      .select(['id', 'name', 'size', 'folder_id'])
      .where('owner_id', '=', ownerId)
      .where('status', '=', 'ready')
      .where('folder_id', 'in', folderIds)
      .limit(limit)
      .execute();
  }

  /** Uploads that started before `before` and never finished (the process died mid-stream). */
  stalePending(before: string, limit = 500): Promise<FileRow[]> {
    return this.db.selectFrom('files').selectAll().where('status', '=', 'pending').where('updated_at', '<', before).limit(limit).execute();
  }
}
