import type { MessageOut } from '../../../server/src/http/common.schemas';
import { baseApi } from '../../services/baseApi';
import type {
  AdminVideoPage,
  AdminVideosListQuery,
  SavedVideo,
  VideoCategory,
  VideoCreateIn,
  VideoLocale,
  VideoPage,
  VideoPatchIn,
  VideoStatus,
} from './videosTypes';

// Spec area "Videos": the public tutorial list (no sign-in, no token) and the admins' management
// of it. One 'Video' list tag: any admin change refreshes both lists.

const LIST = { type: 'Video' as const, id: 'LIST' };

export const videosApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listVideos: build.query<VideoPage, { page?: number; pageSize?: number; category?: VideoCategory; locale: VideoLocale }>({
      query: ({ page = 1, pageSize = 50, category, locale }) => ({
        url: '/videos/',
        params: { page, page_size: pageSize, locale, ...(category ? { category } : {}) },
      }),
      providesTags: [LIST],
    }),
    listAdminVideos: build.query<AdminVideoPage, { page?: number; pageSize?: number; category?: VideoCategory; locale?: VideoLocale; status?: VideoStatus }>({
      query: ({ page = 1, pageSize = 100, ...filters }): { url: string; params: AdminVideosListQuery } => ({
        url: '/videos/admin/all',
        params: { page, page_size: pageSize, ...filters },
      }),
      providesTags: [LIST],
    }),
    createVideo: build.mutation<SavedVideo, VideoCreateIn>({
      query: (body) => ({ url: '/videos/admin', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    updateVideo: build.mutation<SavedVideo, { id: string; changes: VideoPatchIn }>({
      query: ({ id, changes }) => ({ url: `/videos/admin/${encodeURIComponent(id)}`, method: 'PATCH', body: changes }),
      invalidatesTags: [LIST],
    }),
    deleteVideo: build.mutation<MessageOut, string>({
      query: (id) => ({ url: `/videos/admin/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [LIST],
    }),
  }),
});

export const { useListAdminVideosQuery, useListVideosQuery, useCreateVideoMutation, useUpdateVideoMutation, useDeleteVideoMutation } = videosApi;
