import type { ReactNode } from 'react';
import { useAppSelector } from '../../app/hooks';
import { hasRole, type Role } from '../../app/roles';
import { NoAccessPage } from '../../components/NoAccessPage';
import { selectUser } from './authSlice';

/** A page for some roles only (inside RequireAuth): others see why they cannot open it. */
export function RequireRole({ roles, children }: { roles?: readonly Role[]; children: ReactNode }) {
  const user = useAppSelector(selectUser);
  return hasRole(user, roles) ? children : <NoAccessPage />;
}
