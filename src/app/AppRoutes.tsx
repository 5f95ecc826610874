import { Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { PageSpinner } from '../components/PageSpinner';
import { RequireAuth } from '../features/auth/RequireAuth';
import { RequireRole } from '../features/auth/RequireRole';
import { LocaleRedirect } from '../i18n/LocaleRedirect';
import { areas } from './areas';
import { lazyComponent, type LazyComponent } from './lazyComponent';
import { lazyPage } from './lazyPage';
import { ADMIN_ROLES, STAFF_ROLES, type Role } from './roles';

// Every page and both frames are downloaded when first shown, so the sign-in page loads only
// what it needs (issue 7, "First load"). Each route waits for its code behind a PageSpinner, and
// every page but the sign-in, password and not-found pages for the rest of the texts too
// (lazyPage; issue 10).

const AppShell = lazyPage(() => import('../components/AppShell').then((m) => m.AppShell));
const PublicOrAppShell = lazyPage(() => import('../components/PublicShell').then((m) => m.PublicOrAppShell));
const HomePage = lazyPage(() => import('../features/home/HomePage').then((m) => m.HomePage));
const LoginPage = lazyComponent(() => import('../features/auth/LoginPage').then((m) => m.LoginPage));
const SignupPage = lazyComponent(() => import('../features/auth/SignupPage').then((m) => m.SignupPage));
const RequestInvitationPage = lazyPage(() => import('../features/beta/RequestInvitationPage').then((m) => m.RequestInvitationPage));
const ForgotPasswordPage = lazyComponent(() => import('../features/auth/ForgotPasswordPage').then((m) => m.ForgotPasswordPage));
const ResetPasswordPage = lazyComponent(() => import('../features/auth/ResetPasswordPage').then((m) => m.ResetPasswordPage));
const NotFoundPage = lazyComponent(() => import('../components/NotFoundPage').then((m) => m.NotFoundPage));
const WorkflowEditorPage = lazyPage(() => import('../features/workflows/editor/WorkflowEditorPage').then((m) => m.WorkflowEditorPage));
const GalleryPreviewPage = lazyPage(() => import('../features/gallery/GalleryPreviewPage').then((m) => m.GalleryPreviewPage));
const DatasetPage = lazyPage(() => import('../features/datasets/DatasetPage').then((m) => m.DatasetPage));
const ConversationPage = lazyPage(() => import('../features/conversations/ConversationPage').then((m) => m.ConversationPage));
const ContactQueryPage = lazyPage(() => import('../features/contact/ContactQueryPage').then((m) => m.ContactQueryPage));
const SupportQueryPage = lazyPage(() => import('../features/contact/SupportQueryPage').then((m) => m.SupportQueryPage));
const InvitationCodesPage = lazyPage(() => import('../features/beta/InvitationCodesPage').then((m) => m.InvitationCodesPage));
const AdminVideosPage = lazyPage(() => import('../features/videos/AdminVideosPage').then((m) => m.AdminVideosPage));
const TestCheckoutPage = lazyPage(() => import('../features/payments/TestCheckoutPage').then((m) => m.TestCheckoutPage));
const FolderPage = areas.find((area) => area.id === 'files')!.Page!;

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageSpinner />}>{children}</Suspense>;
}

/** A signed-in page in the app frame. Frame and page download side by side, not one after the
 *  other (the page would otherwise be found only once the frame has rendered). With `roles`,
 *  anyone else gets the "no access" screen in the frame, and the page's calls are never made. */
function SignedIn({ Page, fluid, roles }: { Page: LazyComponent; fluid?: boolean; roles?: readonly Role[] }) {
  void AppShell.preload();
  void Page.preload();
  return (
    <RequireAuth>
      <Lazy>
        <AppShell fluid={fluid}>
          <RequireRole roles={roles}>
            <Lazy>
              <Page />
            </Lazy>
          </RequireRole>
        </AppShell>
      </Lazy>
    </RequireAuth>
  );
}

/** A page visitors may see too (the gallery): the app frame when signed in, a visitor's otherwise. */
function Public({ Page }: { Page: LazyComponent }) {
  void PublicOrAppShell.preload();
  void Page.preload();
  return (
    <Lazy>
      <PublicOrAppShell>
        <Lazy>
          <Page />
        </Lazy>
      </PublicOrAppShell>
    </Lazy>
  );
}

/** Every page, relative to the language prefix ('' or '/cn'). */
function LocalizedRoutes() {
  return (
    <Routes>
      <Route
        index
        element={
          <Lazy>
            <HomePage />
          </Lazy>
        }
      />
      <Route
        path="login"
        element={
          <Lazy>
            <LoginPage />
          </Lazy>
        }
      />
      <Route
        path="signup"
        element={
          <Lazy>
            <SignupPage />
          </Lazy>
        }
      />
      <Route
        path="request-invitation"
        element={
          <Lazy>
            <RequestInvitationPage />
          </Lazy>
        }
      />
      <Route
        path="forgot-password"
        element={
          <Lazy>
            <ForgotPasswordPage />
          </Lazy>
        }
      />
      <Route
        path="reset-password"
        element={
          <Lazy>
            <ResetPasswordPage />
          </Lazy>
        }
      />
      {areas.map(
        ({ id, path, Page, public: isPublic, roles }) =>
          Page && <Route key={id} path={path.slice(1)} element={isPublic ? <Public Page={Page} /> : <SignedIn Page={Page} roles={roles} />} />,
      )}
      <Route path="workflows/:workflowId" element={<SignedIn Page={WorkflowEditorPage} fluid />} />
      <Route path="datasets/:datasetId" element={<SignedIn Page={DatasetPage} />} />
      <Route path="conversations/:conversationId" element={<SignedIn Page={ConversationPage} />} />
      <Route path="files/:folderId" element={<SignedIn Page={FolderPage} />} />
      <Route path="billing/test-checkout/:paymentId" element={<SignedIn Page={TestCheckoutPage} />} />
      <Route path="gallery/:workflowId" element={<Public Page={GalleryPreviewPage} />} />
      <Route path="contact/:queryId" element={<SignedIn Page={ContactQueryPage} />} />
      <Route path="support/:queryId" element={<SignedIn Page={SupportQueryPage} roles={STAFF_ROLES} />} />
      <Route path="admin/invitation-codes" element={<SignedIn Page={InvitationCodesPage} roles={ADMIN_ROLES} />} />
      <Route path="admin/videos" element={<SignedIn Page={AdminVideosPage} roles={ADMIN_ROLES} />} />
      <Route
        path="*"
        element={
          <Lazy>
            <NotFoundPage />
          </Lazy>
        }
      />
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
