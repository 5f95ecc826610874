import { useEffect } from 'react';
import { useAppSelector } from '../../app/hooks';
import { selectDraftsAtRisk } from './stepDrafts';

/**
 * Drafts outlive a reload through the browser's storage, except secrets and oversized values,
 * which are never written there (stepDraftsStorage.ts). While one of those is unsaved, the browser
 * asks before the page is left or reloaded. (Moving between the app's own pages loses nothing.)
 */
export function UnsavedDraftsWarning() {
  const atRisk = useAppSelector(selectDraftsAtRisk);
  useEffect(() => {
    if (!atRisk) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [atRisk]);
  return null;
}
