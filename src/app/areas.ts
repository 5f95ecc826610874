import type { IconType } from 'react-icons';
import { LuFolder, LuLayoutDashboard, LuLayoutGrid, LuMessagesSquare, LuSettings, LuWallet, LuWorkflow } from 'react-icons/lu';
import { lazyComponent, type LazyComponent } from './lazyComponent';

// The signed-in areas, in navigation order. The header, the phone drawer, the dashboard cards and
// the routes are all built from this list, so a new area (Workflows, Files, Runs, Agents,
// Billing, Support, Beta) is one entry here once its page exists. Never list an area without one.

export interface Area {
  id: string;
  /** App path without the language prefix. */
  path: string;
  labelId: string;
  descriptionId: string;
  icon: IconType;
  /** The page, behind sign-in and inside the app shell. The dashboard has none: it is the home
   *  page, which shows the landing page to visitors instead. */
  Page?: LazyComponent;
  /** Visitors may see it too (the public gallery): no sign-in needed. */
  public?: boolean;
}

// Each area's page is its own download, fetched when first shown (lazyComponent).
const WorkflowsPage = lazyComponent(() => import('../features/workflows/WorkflowsPage').then((m) => m.WorkflowsPage));
const FilesPage = lazyComponent(() => import('../features/files/FilesPage').then((m) => m.FilesPage));
const GalleryPage = lazyComponent(() => import('../features/gallery/GalleryPage').then((m) => m.GalleryPage));
const ConversationsPage = lazyComponent(() => import('../features/conversations/ConversationsPage').then((m) => m.ConversationsPage));
const BillingPage = lazyComponent(() => import('../features/usage/BillingPage').then((m) => m.BillingPage));
const SettingsPage = lazyComponent(() => import('../features/users/SettingsPage').then((m) => m.SettingsPage));

export const areas: Area[] = [
  { id: 'dashboard', path: '/', labelId: 'nav.dashboard', descriptionId: 'nav.dashboard.description', icon: LuLayoutDashboard },
  { id: 'workflows', path: '/workflows', labelId: 'nav.workflows', descriptionId: 'nav.workflows.description', icon: LuWorkflow, Page: WorkflowsPage },
  { id: 'files', path: '/files', labelId: 'nav.files', descriptionId: 'nav.files.description', icon: LuFolder, Page: FilesPage },
  { id: 'conversations', path: '/conversations', labelId: 'nav.conversations', descriptionId: 'nav.conversations.description', icon: LuMessagesSquare, Page: ConversationsPage },
  { id: 'gallery', path: '/gallery', labelId: 'nav.gallery', descriptionId: 'nav.gallery.description', icon: LuLayoutGrid, Page: GalleryPage, public: true },
  { id: 'billing', path: '/billing', labelId: 'nav.billing', descriptionId: 'nav.billing.description', icon: LuWallet, Page: BillingPage },
  { id: 'settings', path: '/settings', labelId: 'nav.settings', descriptionId: 'nav.settings.description', icon: LuSettings, Page: SettingsPage },
];
