import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import { precompile } from '../../db/precompiled';
import type { UserModelColumn, UsersTable } from '../../db/schema';

export type SessionUser = Omit<UsersTable, 'password_hash' | UserModelColumn> & { session_id: string };

/** The token check's query, built and compiled once (see precompile). */
const userByTokenQuery = (db: Db) =>
  precompile(db, ['tokenHash', 'now'], (db, v) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id as session_id',
        'users.id',
        'users.email',
        'users.name',
        'users.role',
        'users.locale',
        'users.theme',
        'users.created_at',
        'users.updated_at',
      ])
      .where('sessions.token_hash', '=', v.tokenHash)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', v.now),
  );

export class SessionsRepository {
  private readonly userByToken: ReturnType<typeof userByTokenQuery>;

  constructor(private readonly db: Db) {
    this.userByToken = userByTokenQuery(db);
  }

  async create(input: { userId: string; tokenHash: string; expiresAt: string; userAgent: string | null; ip: string | null }) {
    const now = new Date().toISOString();
    await this.db
      .insertInto('sessions')
      .values({
        id: randomUUID(),
        user_id: input.userId,
        token_hash: input.tokenHash,
        created_at: now,
        expires_at: input.expiresAt,
        revoked_at: null,
        user_agent: input.userAgent,
        ip: input.ip,
      })
      .execute();
  }

  /**
   * The user behind a live (unexpired, unrevoked) token, in one indexed query. Every secure
   * request asks this, so the query is built and compiled once.
   */
  async findUserByTokenHash(tokenHash: string, now: string): Promise<SessionUser | undefined> {
    const [user] = await this.userByToken({ tokenHash, now });
    return user;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('id', '=', sessionId).execute();
  }

  async revokeAllForUser(userId: string): Promise<void> {
    await this.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  }

  /** Housekeeping: sessions that can never be used again. */
  async deleteDead(before: string): Promise<number> {
    const result = await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
