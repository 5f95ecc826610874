import type { Static } from '@sinclair/typebox';
import type {
  VideoAdminOut,
  VideoAdminPage,
  VideoCategory as VideoCategorySchema,
  VideoCreateIn,
  VideoLocale as VideoLocaleSchema,
  VideoOut,
  VideoPage as VideoPageSchema,
  VideoPatchIn,
  VideoSavedOut,
  VideosAdminQuery,
  VideosQuery,
  VideoStatus as VideoStatusSchema,
} from '../../../server/src/modules/videos/videos.schemas';

// Tutorial videos' shapes, from the server's own schemas (issue 11's contract, "Videos").

export type VideoCategory = Static<typeof VideoCategorySchema>;
export const VIDEO_CATEGORIES: readonly VideoCategory[] = ['getting_started', 'workflows', 'datasets', 'agents', 'billing'];

export type VideoLocale = Static<typeof VideoLocaleSchema>;
export const VIDEO_LOCALES: readonly VideoLocale[] = ['en', 'cn'];

export type VideoStatus = Static<typeof VideoStatusSchema>;

/** `url`: an http(s) URL or a path on this site ('/tutorials/…'). */
export type Video = VideoOut;
/** What admins see: hidden ones too, the order they are listed in, and when they were changed. */
export type AdminVideo = VideoAdminOut;
/** A saved video (add or change), with the server's notice. */
export type SavedVideo = Static<typeof VideoSavedOut>;

export type { VideoCreateIn, VideoPatchIn };
export type VideosListQuery = Static<typeof VideosQuery>;
export type AdminVideosListQuery = Static<typeof VideosAdminQuery>;

export type VideoPage = Static<typeof VideoPageSchema>;
export type AdminVideoPage = Static<typeof VideoAdminPage>;

/** The server's input limits (videos.schemas). */
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 2000;
export const URL_MAX = 2000;
export const DURATION_MAX_SECONDS = 86_400;
export const POSITION_MAX = 100_000;
