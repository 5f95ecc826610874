import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { DeletedOut, FileDetailOut, FileOut, FolderContentsOut, FolderOut, UploadOut } from '../../../server/src/modules/files/files.schemas';
import { baseApi } from '../../services/baseApi';

// Spec area "Files": folders with their children, and the small writes on files and folders.
// Uploads and downloads do not go through here: they need progress and blobs (see transfer.ts).
// Every write invalidates all folder views: the list, the tree and the storage meter all read
// getFolder, and a move or delete changes two folders at once.

export type FolderSortKey = 'name' | 'size' | 'created_at' | 'updated_at';
export type SortOrder = 'asc' | 'desc';
export type FolderEntry = FolderContentsOut['items'][number];
export type FileEntry = Extract<FolderEntry, { type: 'file' }>;
export type FolderItem = Extract<FolderEntry, { type: 'folder' }>;
export type { FileDetailOut, FileOut, FolderContentsOut, FolderOut, UploadOut, DeletedOut };

/** A folder and the folders above it (top level first, the folder itself last). */
export interface FolderDetail {
  folder: FolderOut;
  path: FolderContentsOut['path'];
}

export interface FolderArgs {
  /** A folder id or 'root'. */
  id: string;
  page?: number;
  page_size?: number;
  sort?: FolderSortKey;
  order?: SortOrder;
}

const writes = ['Folder', 'File'] as const;

/** For lookups of an id some other record names (a step's file param): gone is an answer, null,
 *  not a failure, so the notices say nothing and the screen says "not found" in its own words. */
export function missingAsNull<T>(result: { data?: unknown; error?: FetchBaseQueryError }): { data: T | null } | { error: FetchBaseQueryError } {
  if (result.error) return result.error.status === 404 ? { data: null } : { error: result.error };
  return { data: result.data as T };
}

export const filesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getFolder: build.query<FolderContentsOut, FolderArgs>({
      query: ({ id, ...params }) => ({ url: `/files/folders/${encodeURIComponent(id)}`, params }),
      providesTags: (result, _error, { id }) => [
        { type: 'Folder', id },
        ...(result?.items ?? []).map((item) => ({ type: item.type === 'file' ? ('File' as const) : ('Folder' as const), id: item.id })),
      ],
    }),
    lookupFile: build.query<FileDetailOut | null, string>({
      queryFn: async (id, _api, _extra, baseQuery) => missingAsNull<FileDetailOut>(await baseQuery(`/files/files/${encodeURIComponent(id)}`)),
      providesTags: (_result, _error, id) => [{ type: 'File', id }],
    }),
    lookupFolder: build.query<FolderDetail | null, string>({
      queryFn: async (id, _api, _extra, baseQuery) => {
        // The folder's first page of one entry is the cheapest answer that names it and its path.
        const result = missingAsNull<FolderContentsOut>(await baseQuery({ url: `/files/folders/${encodeURIComponent(id)}`, params: { page_size: 1 } }));
        if ('error' in result) return result;
        const contents = result.data;
        return { data: contents?.folder ? { folder: contents.folder, path: contents.path } : null };
      },
      providesTags: (_result, _error, id) => [{ type: 'Folder', id }],
    }),
    createFolder: build.mutation<FolderOut, { name: string; parent_id: string | null }>({
      query: (body) => ({ url: '/files/folders', method: 'POST', body }),
      invalidatesTags: [...writes],
    }),
    renameFolder: build.mutation<FolderOut, { folder_id: string; name: string }>({
      query: (body) => ({ url: '/files/folders/rename', method: 'PUT', body }),
      invalidatesTags: [...writes],
    }),
    deleteFolder: build.mutation<DeletedOut, string>({
      query: (id) => ({ url: `/files/folders/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [...writes],
    }),
    renameFile: build.mutation<FileOut, { id: string; name: string }>({
      query: ({ id, name }) => ({ url: `/files/files/${encodeURIComponent(id)}/rename`, method: 'PUT', body: { name } }),
      invalidatesTags: [...writes],
    }),
    moveFile: build.mutation<FileOut, { id: string; folder_id: string | null }>({
      query: ({ id, folder_id }) => ({ url: `/files/files/${encodeURIComponent(id)}/move`, method: 'PUT', body: { folder_id } }),
      invalidatesTags: [...writes],
    }),
    deleteFile: build.mutation<DeletedOut, string>({
      query: (id) => ({ url: `/files/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [...writes],
    }),
  }),
});

export const {
  useGetFolderQuery,
  useLookupFileQuery,
  useLookupFolderQuery,
  useCreateFolderMutation,
  useRenameFolderMutation,
  useDeleteFolderMutation,
  useRenameFileMutation,
  useMoveFileMutation,
  useDeleteFileMutation,
} = filesApi;
