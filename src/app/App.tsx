import { Suspense, useEffect } from 'react';
import { initializeAuth } from '../features/auth/authThunks';
import { LazyNoticeModal } from '../features/notices/LazyNoticeModal';
import { UnsavedDraftsWarning } from '../features/steps/UnsavedDraftsWarning';
import { Toaster } from '../features/notices/Toaster';
import { UserLocaleSync } from '../features/users/UserLocaleSync';
import { UserThemeSync } from '../features/users/UserThemeSync';
import { I18nProvider } from '../i18n/I18nProvider';
import { LocaleDataRefresh } from '../i18n/LocaleDataRefresh';
import { AppRoutes } from './AppRoutes';
import { useAppDispatch } from './hooks';
import { NavigationBinder } from './NavigationBinder';

/** Everything inside the router: language, session start-up, pages, and the global notices. */
export function App() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(initializeAuth());
  }, [dispatch]);

  // The Suspense is for a first visit straight to a Chinese page, whose catalog is still on its
  // way (I18nProvider); nothing is on screen yet then, so there is nothing to show instead.
  return (
    <Suspense fallback={null}>
      <I18nProvider>
        <NavigationBinder />
        <UserThemeSync />
        <UserLocaleSync />
        <LocaleDataRefresh />
        <UnsavedDraftsWarning />
        <AppRoutes />
        <Toaster />
        <LazyNoticeModal />
      </I18nProvider>
    </Suspense>
  );
}
