import type { PageOf } from '../../../server/src/http/common.schemas';
import type { Locale } from '../../../server/src/modules/users/users.schemas';

// Tutorial videos' shapes (issue 11's contract, "Videos"). They mirror the server's video schemas;
// once those are on main these become `Static<typeof …>` of them.

export const VIDEO_CATEGORIES = ['getting_started', 'workflows', 'datasets', 'agents', 'billing'] as const;
export type VideoCategory = (typeof VIDEO_CATEGORIES)[number];

export type VideoStatus = 'published' | 'hidden';

export interface Video {
  id: string;
  title: string;
  description: string;
  /** http(s) URL or a path on this site ('/tutorials/…'). */
  url: string;
  thumbnail_url: string | null;
  duration_seconds: number;
  category: VideoCategory;
  locale: Locale;
}

/** What admins see: hidden ones too, and the order they are listed in. */
export interface AdminVideo extends Video {
  status: VideoStatus;
  position: number;
}

export type VideoIn = Omit<AdminVideo, 'id'>;

export type VideoPage = PageOf<Video>;
export type AdminVideoPage = PageOf<AdminVideo>;

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 2000;
export const URL_MAX = 2000;
