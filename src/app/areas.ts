import type { ComponentType } from 'react';
import type { IconType } from 'react-icons';
import { LuFolder, LuLayoutDashboard, LuLayoutGrid, LuSettings, LuWorkflow } from 'react-icons/lu';
import { FilesPage } from '../features/files/FilesPage';
import { GalleryPage } from '../features/gallery/GalleryPage';
import { WorkflowsPage } from '../features/workflows/WorkflowsPage';
import { SettingsPage } from '../features/users/SettingsPage';

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
  Page?: ComponentType;
  /** Visitors may see it too (the public gallery): no sign-in needed. */
  public?: boolean;
}

export const areas: Area[] = [
  { id: 'dashboard', path: '/', labelId: 'nav.dashboard', descriptionId: 'nav.dashboard.description', icon: LuLayoutDashboard },
  { id: 'workflows', path: '/workflows', labelId: 'nav.workflows', descriptionId: 'nav.workflows.description', icon: LuWorkflow, Page: WorkflowsPage },
  { id: 'files', path: '/files', labelId: 'nav.files', descriptionId: 'nav.files.description', icon: LuFolder, Page: FilesPage },
  { id: 'gallery', path: '/gallery', labelId: 'nav.gallery', descriptionId: 'nav.gallery.description', icon: LuLayoutGrid, Page: GalleryPage, public: true },
  { id: 'settings', path: '/settings', labelId: 'nav.settings', descriptionId: 'nav.settings.description', icon: LuSettings, Page: SettingsPage },
];
