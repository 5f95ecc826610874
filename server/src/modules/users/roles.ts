import { forbidden } from '../../lib/errors';
import type { Role } from './users.schemas';

/** Who may answer contact queries: support staff, and admins (who may do anything support does). */
export const STAFF: readonly Role[] = ['support', 'admin'];
export const ADMIN: readonly Role[] = ['admin'];

/** Throws 403 unless the user holds one of the roles; services call it before anything else. */
export function requireRole(user: { role: Role }, roles: readonly Role[]): void {
  if (!roles.includes(user.role)) throw forbidden();
}

export const isStaff = (user: { role: Role }): boolean => STAFF.includes(user.role);
