import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { localeRedirectTarget } from './localeRedirect';
import { readLocalePreference } from './preference';

/** Sends Chinese-preferring visitors to the /cn version of the page before anything renders. */
export function LocaleRedirect({ children }: { children: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  const target = localeRedirectTarget(pathname, search, hash, readLocalePreference(), navigator.language);
  if (target) return <Navigate to={target} replace />;
  return children;
}
