import { useEffect, useState } from 'react';
import type { FolderSortKey, SortOrder } from './filesApi';

// How the file manager shows a folder (list or grid, sort and order): remembered per browser.

const VIEW_KEY = 'stepwise.files.view';
const SORT_KEY = 'stepwise.files.sort';

export type FilesView = 'list' | 'grid';
export const SORTS: FolderSortKey[] = ['name', 'size', 'updated_at', 'created_at'];

export interface SortSpec {
  sort: FolderSortKey;
  order: SortOrder;
}

function storedView(): FilesView {
  const value = localStorage.getItem(VIEW_KEY);
  return value === 'grid' ? 'grid' : 'list';
}

function storedSort(): SortSpec {
  const [sort, order] = (localStorage.getItem(SORT_KEY) ?? '').split(':');
  return { sort: SORTS.includes(sort as FolderSortKey) ? (sort as FolderSortKey) : 'name', order: order === 'desc' ? 'desc' : 'asc' };
}

export function useFilesView() {
  const [view, setView] = useState<FilesView>(storedView);
  useEffect(() => localStorage.setItem(VIEW_KEY, view), [view]);
  return [view, setView] as const;
}

/** The sort of a folder's listing. Choosing the current column again flips its order; a new
 *  column starts A→Z for names and newest/largest first for the others. */
export function useFilesSort() {
  const [sortSpec, setSortSpec] = useState<SortSpec>(storedSort);
  useEffect(() => localStorage.setItem(SORT_KEY, `${sortSpec.sort}:${sortSpec.order}`), [sortSpec]);
  const sortBy = (sort: FolderSortKey) =>
    setSortSpec((current) => ({ sort, order: current.sort === sort ? (current.order === 'asc' ? 'desc' : 'asc') : sort === 'name' ? 'asc' : 'desc' }));
  const flipOrder = () => setSortSpec((s) => ({ ...s, order: s.order === 'asc' ? 'desc' : 'asc' }));
  return { sortSpec, sortBy, flipOrder };
}
