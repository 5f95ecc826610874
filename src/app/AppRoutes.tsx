import { Route, Routes } from 'react-router-dom';
import { AppShell } from '../components/AppShell';
import { NotFoundPage } from '../components/NotFoundPage';
import { PublicOrAppShell } from '../components/PublicShell';
import { WorkflowEditorPage } from '../features/workflows/editor/WorkflowEditorPage';
import { FilesPage } from '../features/files/FilesPage';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { LoginPage } from '../features/auth/LoginPage';
import { RequireAuth } from '../features/auth/RequireAuth';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { SignupPage } from '../features/auth/SignupPage';
import { HomePage } from '../features/home/HomePage';
import { LocaleRedirect } from '../i18n/LocaleRedirect';
import { areas } from './areas';

/** Every page, relative to the language prefix ('' or '/cn'). */
function LocalizedRoutes() {
  return (
    <Routes>
      <Route index element={<HomePage />} />
      <Route path="login" element={<LoginPage />} />
      <Route path="signup" element={<SignupPage />} />
      <Route path="forgot-password" element={<ForgotPasswordPage />} />
      <Route path="reset-password" element={<ResetPasswordPage />} />
      {areas.map(
        ({ id, path, Page, public: isPublic }) =>
          Page && (
            <Route
              key={id}
              path={path.slice(1)}
              element={
                isPublic ? (
                  <PublicOrAppShell>
                    <Page />
                  </PublicOrAppShell>
                ) : (
                <RequireAuth>
                  <AppShell>
                    <Page />
                  </AppShell>
                </RequireAuth>
                )
              }
            />
          ),
      )}
      <Route
        path="workflows/:workflowId"
        element={
          <RequireAuth>
            <AppShell fluid>
              <WorkflowEditorPage />
            </AppShell>
          </RequireAuth>
        }
      />
      <Route
        path="files/:folderId"
        element={
          <RequireAuth>
            <AppShell>
              <FilesPage />
            </AppShell>
          </RequireAuth>
        }
      />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

/** The same pages twice: under /cn in Chinese and at the root in English (spec §2). */
export function AppRoutes() {
  return (
    <LocaleRedirect>
      <Routes>
        <Route path="/cn/*" element={<LocalizedRoutes />} />
        <Route path="/*" element={<LocalizedRoutes />} />
      </Routes>
    </LocaleRedirect>
  );
}
