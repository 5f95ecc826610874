import type { DeletedOut, FileOut, FolderContentsOut, FolderOut, UploadOut } from '../../../server/src/modules/files/files.schemas';
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
export type { FileOut, FolderContentsOut, FolderOut, UploadOut, DeletedOut };

export interface FolderArgs {
  /** A folder id or 'root'. */
  id: string;
  page?: number;
  page_size?: number;
  sort?: FolderSortKey;
  order?: SortOrder;
}

const writes = ['Folder', 'File'] as const;

export const filesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getFolder: build.query<FolderContentsOut, FolderArgs>({
      query: ({ id, ...params }) => ({ url: `/files/folders/${encodeURIComponent(id)}`, params }),
      providesTags: (result, _error, { id }) => [
        { type: 'Folder', id },
        ...(result?.items ?? []).map((item) => ({ type: item.type === 'file' ? ('File' as const) : ('Folder' as const), id: item.id })),
      ],
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
  useCreateFolderMutation,
  useRenameFolderMutation,
  useDeleteFolderMutation,
  useRenameFileMutation,
  useMoveFileMutation,
  useDeleteFileMutation,
} = filesApi;
