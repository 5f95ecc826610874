import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';

export class PasswordResetsRepository {
  constructor(private readonly db: Db) {}

  async create(input: { userId: string; tokenHash: string; expiresAt: string }): Promise<void> {
    await this.db
      .insertInto('password_reset_tokens')
      .values({
        id: randomUUID(),
        user_id: input.userId,
        token_hash: input.tokenHash,
        created_at: new Date().toISOString(),
        expires_at: input.expiresAt,
        used_at: null,
      })
      .execute();
  }

  /** The user of a token that is still usable, without spending it. */
  async findLive(tokenHash: string, now: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('password_reset_tokens')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.user_id;
  }

  /**
   * Marks a live token used and answers its user, in one statement, so two requests racing with
   * the same link cannot both succeed.
   */
  async consume(tokenHash: string, now: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('password_reset_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  /** A new password makes every other outstanding link for that user useless. */
  async invalidateAllForUser(userId: string, now: string): Promise<void> {
    await this.db.updateTable('password_reset_tokens').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  }

  async deleteDead(before: string): Promise<number> {
    const result = await this.db
      .deleteFrom('password_reset_tokens')
      .where((eb) => eb.or([eb('expires_at', '<', before), eb('used_at', '<', before)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
