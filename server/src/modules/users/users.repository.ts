import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import type { UserModelColumn, UsersTable } from '../../db/schema';

export type UserRow = UsersTable;
export type UserSettingsUpdate = Partial<Pick<UsersTable, 'name' | 'locale' | 'theme' | UserModelColumn>>;

export class UsersRepository {
  constructor(private readonly db: Db) {}

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async insert(input: Pick<UsersTable, 'email' | 'name' | 'password_hash' | 'role' | 'locale'>): Promise<UserRow> {
    const now = new Date().toISOString();
    const row: UserRow = {
      id: randomUUID(),
      theme: 'system',
      created_at: now,
      updated_at: now,
      ai_base_url: null,
      ai_model: null,
      ai_provider: null,
      ai_api_key_sealed: null,
      ...input,
    };
    await this.db.insertInto('users').values(row).execute();
    return row;
  }

  async update(id: string, changes: UserSettingsUpdate & Partial<Pick<UsersTable, 'password_hash' | 'role'>>): Promise<UserRow | undefined> {
    await this.db
      .updateTable('users')
      .set({ ...changes, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    return this.findById(id);
  }
}
