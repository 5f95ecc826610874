import { useLocation } from 'react-router-dom';

/** Lets tests read where the router is (path + query) as text. */
export function LocationDisplay() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{`${pathname}${search}`}</div>;
}
