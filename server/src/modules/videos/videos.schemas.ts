import { Type, type Static } from '@sinclair/typebox';
import { Id, Notices, Page, pageFields, StringEnum } from '../../http/common.schemas';

export const VideoCategory = StringEnum(['getting_started', 'workflows', 'datasets', 'agents', 'billing']);
export const VideoLocale = StringEnum(['en', 'cn']);
export const VideoStatus = StringEnum(['published', 'hidden']);

/** An http(s) address or a path of this site; checked further by `videoUrlProblem`. */
const Url = Type.String({ minLength: 1, maxLength: 2000 });

const videoFields = {
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  url: Type.String(),
  thumbnail_url: Type.Union([Type.String(), Type.Null()]),
  duration_seconds: Type.Integer(),
  category: VideoCategory,
  locale: VideoLocale,
};

export const VideoOut = Type.Object(videoFields);
export type VideoOut = Static<typeof VideoOut>;

const adminFields = { ...videoFields, status: VideoStatus, position: Type.Integer(), created_at: Type.String(), updated_at: Type.String() };
export const VideoAdminOut = Type.Object(adminFields);
export type VideoAdminOut = Static<typeof VideoAdminOut>;

const editable = {
  title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  description: Type.String({ maxLength: 2000 }),
  url: Url,
  thumbnail_url: Type.Union([Url, Type.Null()]),
  duration_seconds: Type.Integer({ minimum: 0, maximum: 86_400 }),
  category: VideoCategory,
  locale: VideoLocale,
  position: Type.Integer({ minimum: 0, maximum: 100_000 }),
  status: VideoStatus,
};

export const VideoCreateIn = Type.Object(
  {
    title: editable.title,
    description: Type.Optional(editable.description),
    url: editable.url,
    thumbnail_url: Type.Optional(editable.thumbnail_url),
    duration_seconds: editable.duration_seconds,
    category: editable.category,
    locale: editable.locale,
    position: Type.Optional(editable.position),
    status: Type.Optional(editable.status),
  },
  { additionalProperties: false },
);
export type VideoCreateIn = Static<typeof VideoCreateIn>;

export const VideoPatchIn = Type.Partial(Type.Object(editable), { additionalProperties: false, minProperties: 1 });
export type VideoPatchIn = Static<typeof VideoPatchIn>;

export const VideosQuery = Type.Object(
  {
    ...pageFields({ size: 20, maxSize: 100 }),
    category: Type.Optional(VideoCategory),
    /** Default: the request's language (Accept-Language). */
    locale: Type.Optional(VideoLocale),
  },
  { additionalProperties: false },
);
export type VideosQuery = Static<typeof VideosQuery>;

export const VideosAdminQuery = Type.Object(
  { ...pageFields({ size: 50, maxSize: 200 }), category: Type.Optional(VideoCategory), locale: Type.Optional(VideoLocale), status: Type.Optional(VideoStatus) },
  { additionalProperties: false },
);
export type VideosAdminQuery = Static<typeof VideosAdminQuery>;

export const VideoPage = Page(VideoOut);
export const VideoAdminPage = Page(VideoAdminOut);
/** The video as stored, with a notice to show. */
export const VideoSavedOut = Type.Object({ ...adminFields, ...Notices });
export const VideoIdParams = Type.Object({ id: Id });
