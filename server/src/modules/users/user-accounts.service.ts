import type { Db } from '../../db/database';
import type { UsersTable } from '../../db/schema';
import { UsersRepository, type UserRow, type UserSettingsUpdate } from './users.repository';

/**
 * The users area's accounts for other areas: signing up and in, password resets (auth), a user
 * found by email (usage, admins). Built on a transaction, the change commits with the caller's.
 */
export class UserAccountsService {
  private readonly users: UsersRepository;

  constructor(db: Db) {
    this.users = new UsersRepository(db);
  }

  byId(id: string): Promise<UserRow | undefined> {
    return this.users.findById(id);
  }

  byEmail(email: string): Promise<UserRow | undefined> {
    return this.users.findByEmail(email);
  }

  create(input: Pick<UsersTable, 'email' | 'name' | 'password_hash' | 'role' | 'locale'>): Promise<UserRow> {
    return this.users.insert(input);
  }

  update(id: string, changes: UserSettingsUpdate & Partial<Pick<UsersTable, 'password_hash' | 'role'>>): Promise<UserRow | undefined> {
    return this.users.update(id, changes);
  }
}
