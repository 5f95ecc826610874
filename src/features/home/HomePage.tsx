import { useAppSelector } from '../../app/hooks';
import { AppShell } from '../../components/AppShell';
import { PageSpinner } from '../../components/PageSpinner';
import { selectAuth } from '../auth/authSlice';
import { DashboardPage } from './DashboardPage';
import { LandingPage } from './LandingPage';

/** `/`: the landing page for visitors, the dashboard for signed-in people. */
export function HomePage() {
  const { initialized, isAuthenticated } = useAppSelector(selectAuth);
  if (!initialized) return <PageSpinner />;
  if (!isAuthenticated) return <LandingPage />;
  return (
    <AppShell>
      <DashboardPage />
    </AppShell>
  );
}
