import { sql } from 'kysely';
import type { FoldersTable } from '../../db/schema';
import type { Db } from '../../db/database';
import { byName, inFolder, likePrefix } from './files.repository';

export type FolderRow = FoldersTable;

export class FoldersRepository {
  constructor(private readonly db: Db) {}

  findOwned(ownerId: string, id: string): Promise<FolderRow | undefined> {
    return this.db.selectFrom('folders').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
  }

  findManyOwned(ownerId: string, ids: string[]): Promise<FolderRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('folders').selectAll().where('id', 'in', ids).where('owner_id', '=', ownerId).execute();
  }

  findByName(ownerId: string, parentId: string | null, name: string): Promise<FolderRow | undefined> {
    return this.db
      .selectFrom('folders')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where(inFolder('parent_id', parentId))
      .where('name', '=', name)
      .executeTakeFirst();
  }

  async namesLike(ownerId: string, parentId: string | null, stem: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('folders')
      .select('name')
      .where('owner_id', '=', ownerId)
      .where(inFolder('parent_id', parentId))
      .where(sql<boolean>`name like ${likePrefix(stem)} escape '\\'`)
      .execute();
    return new Set(rows.map((r) => r.name));
  }

  list(
    ownerId: string,
    parentId: string | null,
    order: 'asc' | 'desc',
    sort: 'name' | 'created_at' | 'updated_at',
    offset: number,
    limit: number,
  ): Promise<FolderRow[]> {
    if (limit <= 0) return Promise.resolve([]);
    return this.db
      .selectFrom('folders')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where(inFolder('parent_id', parentId))
      .orderBy(sort === 'name' ? byName : sort, order)
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  async count(ownerId: string, parentId: string | null): Promise<number> {
    const row = await this.db
      .selectFrom('folders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', ownerId)
      .where(inFolder('parent_id', parentId))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The folder and every folder below it, each once, parents before children. */
  async subtree(ownerId: string, rootId: string): Promise<FolderRow[]> {
    const result = await sql<FolderRow>`
      with recursive tree as (
        select * from folders where id = ${rootId} and owner_id = ${ownerId}
        union all
        select f.* from folders f join tree t on f.parent_id = t.id
      )
      select * from tree`.execute(this.db);
    return result.rows;
  }

  /** From the top-level folder down to this one (the breadcrumbs). */
  async ancestry(ownerId: string, id: string): Promise<FolderRow[]> {
    const result = await sql<FolderRow & { depth: number }>`
      with recursive up as (
        select folders.*, 0 as depth from folders where id = ${id} and owner_id = ${ownerId}
        union all
        select f.*, up.depth + 1 from folders f join up on f.id = up.parent_id
      )
      select * from up order by depth desc`.execute(this.db);
    return result.rows.map(({ depth: _depth, ...row }) => row);
  }

  async insert(row: FolderRow): Promise<FolderRow> {
    await this.db.insertInto('folders').values(row).execute();
    return row;
  }

  async rename(id: string, name: string): Promise<void> {
    await this.db.updateTable('folders').set({ name, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
  }

  /** Deletes the folder; its subfolders and files go with it (foreign keys cascade). */
  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('folders').where('id', '=', id).execute();
  }
}
