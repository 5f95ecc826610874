import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database';
import type { VideosTable } from '../../db/schema';

export type VideoRow = Selectable<VideosTable>;

export interface VideoFilter {
  category?: VideosTable['category'];
  locale?: VideosTable['locale'];
  status?: VideosTable['status'];
  limit: number;
  offset: number;
}

/** Tutorial videos (migration 013), in the order admins gave them. */
export class VideosRepository {
  constructor(private readonly db: Db) {}

  async list(filter: VideoFilter): Promise<{ rows: VideoRow[]; total: number }> {
    let rows = this.db.selectFrom('videos').selectAll();
    let count = this.db.selectFrom('videos').select((eb) => eb.fn.countAll<number>().as('n'));
    for (const column of ['category', 'locale', 'status'] as const) {
      const value = filter[column];
      if (value === undefined) continue;
      rows = rows.where(column, '=', value);
      count = count.where(column, '=', value);
    }
    const [page, counted] = await Promise.all([
      rows.orderBy('position').orderBy('created_at').orderBy('id').limit(filter.limit).offset(filter.offset).execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { rows: page, total: Number(counted.n) };
  }

  findById(id: string): Promise<VideoRow | undefined> {
    return this.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The next free position at the end of the list. */
  async nextPosition(): Promise<number> {
    const row = await this.db
      .selectFrom('videos')
      .select((eb) => eb.fn.max('position').as('last'))
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }

  async insert(row: VideoRow): Promise<void> {
    await this.db.insertInto('videos').values(row).execute();
  }

  async update(id: string, changes: Updateable<VideosTable>): Promise<boolean> {
    const result = await this.db.updateTable('videos').set(changes).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('videos').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
