import { baseApi } from '../../services/baseApi';
import type {
  ContactQuery,
  ContactQueryOut,
  ContactQueryPage,
  ContactCategory,
  ContactReplyIn,
  ContactStatus,
  ContactSubmitIn,
  ContactStatusIn,
  ContactSubmitOut,
  StaffQueryPage,
} from './contactTypes';

// Spec area "Contact": a user's own queries, and the support queue for staff (support, admin).
// Every change to a query invalidates its own entry and both lists, so the user's list and the
// queue show the new status and reply count without a reload.

export interface MyQueriesArgs {
  page?: number;
  pageSize?: number;
  status?: ContactStatus;
}

export interface StaffQueriesArgs extends MyQueriesArgs {
  category?: ContactCategory;
  search?: string;
}

const LIST = { type: 'ContactQuery' as const, id: 'LIST' };

/**
 * The server answers a query with its text in a top-level `message` (ContactQueryOut), where the
 * notices middleware would toast it: moved to `text`.
 */
const withText = ({ message, ...query }: ContactQueryOut): ContactQuery => ({ ...query, text: message });

export const contactApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    submitContactQuery: build.mutation<ContactSubmitOut, ContactSubmitIn>({
      query: (body) => ({ url: '/contact/submit', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    listMyQueries: build.query<ContactQueryPage, MyQueriesArgs>({
      query: ({ page = 1, pageSize = 20, status }) => ({ url: '/contact/my-queries', params: { page, page_size: pageSize, ...(status ? { status } : {}) } }),
      providesTags: (result) => [LIST, ...(result?.items ?? []).map((q) => ({ type: 'ContactQuery' as const, id: q.id }))],
    }),
    listAllQueries: build.query<StaffQueryPage, StaffQueriesArgs>({
      query: ({ page = 1, pageSize = 20, status, category, search }) => ({
        url: '/contact/admin/all',
        params: { page, page_size: pageSize, ...(status ? { status } : {}), ...(category ? { category } : {}), ...(search ? { search } : {}) },
      }),
      providesTags: (result) => [LIST, ...(result?.items ?? []).map((q) => ({ type: 'ContactQuery' as const, id: q.id }))],
    }),
    getContactQuery: build.query<ContactQuery, string>({
      query: (id) => `/contact/${encodeURIComponent(id)}`,
      transformResponse: withText,
      providesTags: (_r, _e, id) => [{ type: 'ContactQuery', id }],
    }),
    replyToContactQuery: build.mutation<ContactQuery, { id: string } & ContactReplyIn>({
      query: ({ id, message }) => ({ url: `/contact/${encodeURIComponent(id)}/replies`, method: 'POST', body: { message } }),
      transformResponse: withText,
      invalidatesTags: (_r, _e, { id }) => [LIST, { type: 'ContactQuery', id }],
    }),
    setContactQueryStatus: build.mutation<ContactQuery, { id: string } & ContactStatusIn>({
      query: ({ id, status }) => ({ url: `/contact/${encodeURIComponent(id)}`, method: 'PATCH', body: { status } }),
      transformResponse: withText,
      invalidatesTags: (_r, _e, { id }) => [LIST, { type: 'ContactQuery', id }],
    }),
  }),
});

export const {
  useSubmitContactQueryMutation,
  useListMyQueriesQuery,
  useListAllQueriesQuery,
  useGetContactQueryQuery,
  useReplyToContactQueryMutation,
  useSetContactQueryStatusMutation,
} = contactApi;
