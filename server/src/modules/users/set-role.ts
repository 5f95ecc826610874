import type { Db } from '../../db/database';
import type { Role } from './users.schemas';
import { UsersRepository } from './users.repository';

export const ROLES: readonly Role[] = ['user', 'support', 'admin'];

/** Gives the account with this email a role; answers false when there is no such account. */
export async function setUserRole(db: Db, email: string, role: Role): Promise<boolean> {
  const users = new UsersRepository(db);
  const user = await users.findByEmail(email.trim().toLowerCase());
  if (!user) return false;
  await users.update(user.id, { role });
  return true;
}
