import type { MessageOut } from '../../../server/src/http/common.schemas';
import type { Locale } from '../../../server/src/modules/users/users.schemas';
import { baseApi } from '../../services/baseApi';
import type { AdminVideo, AdminVideoPage, VideoCategory, VideoIn, VideoPage } from './videosTypes';

// Spec area "Videos": the public tutorial list (no sign-in, no token) and the admins' management
// of it. One 'Video' list tag: any admin change refreshes both lists.

const LIST = { type: 'Video' as const, id: 'LIST' };

export const videosApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listVideos: build.query<VideoPage, { page?: number; pageSize?: number; category?: VideoCategory; locale: Locale }>({
      query: ({ page = 1, pageSize = 50, category, locale }) => ({ url: '/videos/', params: { page, page_size: pageSize, locale, ...(category ? { category } : {}) } }),
      providesTags: [LIST],
    }),
    listAdminVideos: build.query<AdminVideoPage, { page?: number; pageSize?: number }>({
      query: ({ page = 1, pageSize = 100 }) => ({ url: '/videos/admin/all', params: { page, page_size: pageSize } }),
      providesTags: [LIST],
    }),
    createVideo: build.mutation<AdminVideo & Partial<MessageOut>, VideoIn>({
      query: (body) => ({ url: '/videos/admin', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    updateVideo: build.mutation<AdminVideo & Partial<MessageOut>, { id: string; changes: Partial<VideoIn> }>({
      query: ({ id, changes }) => ({ url: `/videos/admin/${encodeURIComponent(id)}`, method: 'PATCH', body: changes }),
      invalidatesTags: [LIST],
    }),
    deleteVideo: build.mutation<Partial<MessageOut>, string>({
      query: (id) => ({ url: `/videos/admin/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [LIST],
    }),
  }),
});

export const { useListVideosQuery, useListAdminVideosQuery, useCreateVideoMutation, useUpdateVideoMutation, useDeleteVideoMutation } = videosApi;
