import type { PendingUploadsTable } from '../../db/schema';
import type { Db } from '../../db/database';

export type PendingUploadRow = PendingUploadsTable;

/** Direct uploads handed out by prepare-upload and not yet confirmed. */
export class PendingUploadsRepository {
  constructor(private readonly db: Db) {}

  findOwned(ownerId: string, id: string): Promise<PendingUploadRow | undefined> {
    return this.db.selectFrom('pending_uploads').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
  }

  findById(id: string): Promise<PendingUploadRow | undefined> {
    return this.db.selectFrom('pending_uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Bytes promised to this owner's unexpired direct uploads (they count against the quota). */
  async reservedBytes(ownerId: string, now: string): Promise<number> {
    const row = await this.db
      .selectFrom('pending_uploads')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('n'))
      .where('owner_id', '=', ownerId)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: PendingUploadRow): Promise<void> {
    await this.db.insertInto('pending_uploads').values(row).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('pending_uploads').where('id', '=', id).execute();
  }

  expiredBefore(before: string, limit = 500): Promise<PendingUploadRow[]> {
    return this.db.selectFrom('pending_uploads').selectAll().where('expires_at', '<', before).limit(limit).execute();
  }
}
