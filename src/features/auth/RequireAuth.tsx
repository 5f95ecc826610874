import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { PageSpinner } from '../../components/PageSpinner';
import { useLocalePath } from '../../i18n/useLocale';
import { selectAuth } from './authSlice';
import type { LoginPageState } from './LoginPage';

/** Protected pages: wait for the session check, then either render or send to sign-in and back. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { initialized, loading, isAuthenticated } = useAppSelector(selectAuth);
  const { pathname, search, hash } = useLocation();
  const localePath = useLocalePath();

  if (!initialized || loading) return <PageSpinner />;
  if (!isAuthenticated) {
    const state: LoginPageState = { from: `${pathname}${search}${hash}` };
    return <Navigate to={localePath('/login')} replace state={state} />;
  }
  return children;
}
