import type { Role } from '../../server/src/modules/users/users.schemas';

// Who may open which screens; the same groups as the server's requireRole (users/roles.ts), which
// answers 403 to anyone else. The web only hides what the server would refuse anyway.

export type { Role };

/** Support staff answer contact queries; admins may do anything support does. */
export const STAFF_ROLES: readonly Role[] = ['support', 'admin'];
export const ADMIN_ROLES: readonly Role[] = ['admin'];

/** No roles listed: everyone signed in. */
export function hasRole(user: { role: Role } | null | undefined, roles: readonly Role[] | undefined): boolean {
  if (!roles) return true;
  return Boolean(user && roles.includes(user.role));
}
