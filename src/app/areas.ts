import type { LazyComponent } from './lazyComponent';
import { lazyPage } from './lazyPage';
import { ADMIN_ROLES, hasRole, STAFF_ROLES, type Role } from './roles';

// The signed-in areas, in navigation order. The header, the phone drawer, the dashboard cards and
// the routes are all built from this list, so a new area (Workflows, Executions, Files, Agents,
// Billing, Support, Beta) is one entry here once its page exists, and its icon in areaIcons.ts.
// Never list an area without one.

export interface Area {
  id: string;
  /** App path without the language prefix. */
  path: string;
  labelId: string;
  descriptionId: string;
  /** The page, behind sign-in and inside the app shell. The dashboard has none: it is the home
   *  page, which shows the landing page to visitors instead. */
  Page?: LazyComponent;
  /** Visitors may see it too (the public gallery): no sign-in needed. */
  public?: boolean;
  /** Only these roles see it in the navigation and may open it (the server answers 403 to
   *  others anyway); everyone signed in when absent. */
  roles?: readonly Role[];
  /** Help and staff areas: reached from the user menu, the phone drawer's second list and the
   *  dashboard, so the header bar keeps to the everyday work areas. */
  secondary?: boolean;
}

// Each area's page is its own download, fetched when first shown with the texts it needs (lazyPage).
const WorkflowsPage = lazyPage(() => import('../features/workflows/WorkflowsPage').then((m) => m.WorkflowsPage));
const ExecutionsPage = lazyPage(() => import('../features/runs/ExecutionsPage').then((m) => m.ExecutionsPage));
const FilesPage = lazyPage(() => import('../features/files/FilesPage').then((m) => m.FilesPage));
const GalleryPage = lazyPage(() => import('../features/gallery/GalleryPage').then((m) => m.GalleryPage));
const ConversationsPage = lazyPage(() => import('../features/conversations/ConversationsPage').then((m) => m.ConversationsPage));
const BillingPage = lazyPage(() => import('../features/usage/BillingPage').then((m) => m.BillingPage));
const SettingsPage = lazyPage(() => import('../features/users/SettingsPage').then((m) => m.SettingsPage));
const ContactPage = lazyPage(() => import('../features/contact/ContactPage').then((m) => m.ContactPage));
const VideosPage = lazyPage(() => import('../features/videos/VideosPage').then((m) => m.VideosPage));
const BetaPage = lazyPage(() => import('../features/beta/BetaPage').then((m) => m.BetaPage));
const SupportQueuePage = lazyPage(() => import('../features/contact/SupportQueuePage').then((m) => m.SupportQueuePage));
const AdminHomePage = lazyPage(() => import('../features/admin/AdminHomePage').then((m) => m.AdminHomePage));

export const areas: Area[] = [
  { id: 'dashboard', path: '/', labelId: 'nav.dashboard', descriptionId: 'nav.dashboard.description' },
  { id: 'workflows', path: '/workflows', labelId: 'nav.workflows', descriptionId: 'nav.workflows.description', Page: WorkflowsPage },
  { id: 'executions', path: '/executions', labelId: 'nav.executions', descriptionId: 'nav.executions.description', Page: ExecutionsPage },
  { id: 'files', path: '/files', labelId: 'nav.files', descriptionId: 'nav.files.description', Page: FilesPage },
  { id: 'conversations', path: '/conversations', labelId: 'nav.conversations', descriptionId: 'nav.conversations.description', Page: ConversationsPage },
  { id: 'gallery', path: '/gallery', labelId: 'nav.gallery', descriptionId: 'nav.gallery.description', Page: GalleryPage, public: true },
  { id: 'billing', path: '/billing', labelId: 'nav.billing', descriptionId: 'nav.billing.description', Page: BillingPage },
  { id: 'settings', path: '/settings', labelId: 'nav.settings', descriptionId: 'nav.settings.description', Page: SettingsPage },
  { id: 'contact', path: '/contact', labelId: 'nav.contact', descriptionId: 'nav.contact.description', Page: ContactPage, secondary: true },
  { id: 'videos', path: '/videos', labelId: 'nav.videos', descriptionId: 'nav.videos.description', Page: VideosPage, public: true, secondary: true },
  { id: 'beta', path: '/beta', labelId: 'nav.beta', descriptionId: 'nav.beta.description', Page: BetaPage, secondary: true },
  {
    id: 'support',
    path: '/support',
    labelId: 'nav.support',
    descriptionId: 'nav.support.description',
    Page: SupportQueuePage,
    roles: STAFF_ROLES,
    secondary: true,
  },
  // /admin opens the first admin page (invitation codes); both admin pages are listed in AppRoutes.
  { id: 'admin', path: '/admin', labelId: 'nav.admin', descriptionId: 'nav.admin.description', Page: AdminHomePage, roles: ADMIN_ROLES, secondary: true },
];

/** The areas this user may see (all of them that need no role when signed out). */
export function areasFor(user: { role: Role } | null | undefined): Area[] {
  return areas.filter((area) => hasRole(user, area.roles));
}
