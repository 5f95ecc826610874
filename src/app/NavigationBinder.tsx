import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { setCurrentPath, setNavigator } from './navigation';

/** Hands the router's navigate function (and the current path) to the navigation module. */
export function NavigationBinder() {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();

  useEffect(() => {
    setNavigator((to, options) => navigate(to, options));
    return () => setNavigator(null);
  }, [navigate]);

  useEffect(() => {
    setCurrentPath(`${pathname}${search}${hash}`);
  }, [pathname, search, hash]);

  return null;
}
