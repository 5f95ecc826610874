import type { IconBaseProps, IconType } from 'react-icons';
import {
  LuFlaskConical,
  LuHistory,
  LuFolder,
  LuHeadset,
  LuLayoutDashboard,
  LuLayoutGrid,
  LuLifeBuoy,
  LuMessagesSquare,
  LuSettings,
  LuShieldCheck,
  LuTvMinimalPlay,
  LuWallet,
  LuWorkflow,
} from 'react-icons/lu';

// Each area's icon, apart from the area list (areas.ts): the routes read that list in the first
// chunk, and an icon there pulled all of react-icons/lu the app uses into the sign-in page's
// download (issue 10). Only the header, the menus and the dashboard draw these, all loaded later.

/** By area id (areas.ts); the area list's test checks that every area has one. */
export const areaIcons: Record<string, IconType> = {
  dashboard: LuLayoutDashboard,
  workflows: LuWorkflow,
  executions: LuHistory,
  files: LuFolder,
  conversations: LuMessagesSquare,
  gallery: LuLayoutGrid,
  billing: LuWallet,
  settings: LuSettings,
  contact: LuLifeBuoy,
  videos: LuTvMinimalPlay,
  beta: LuFlaskConical,
  support: LuHeadset,
  admin: LuShieldCheck,
};

/** The icon of an area, drawn like a react-icons icon. */
export function AreaIcon({ id, ...props }: { id: string } & IconBaseProps) {
  const Icon = areaIcons[id];
  return <Icon {...props} />;
}
