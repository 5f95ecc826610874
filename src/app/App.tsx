import { useEffect } from 'react';
import { initializeAuth } from '../features/auth/authThunks';
import { NoticeModal } from '../features/notices/NoticeModal';
import { Toaster } from '../features/notices/Toaster';
import { UserThemeSync } from '../features/users/UserThemeSync';
import { I18nProvider } from '../i18n/I18nProvider';
import { AppRoutes } from './AppRoutes';
import { useAppDispatch } from './hooks';
import { NavigationBinder } from './NavigationBinder';

/** Everything inside the router: language, session start-up, pages, and the global notices. */
export function App() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(initializeAuth());
  }, [dispatch]);

  return (
    <I18nProvider>
      <NavigationBinder />
      <UserThemeSync />
      <AppRoutes />
      <Toaster />
      <NoticeModal />
    </I18nProvider>
  );
}
