import { act, renderHook } from '@testing-library/react';
import type { FolderEntry } from './filesApi';
import { useFilesSort } from './filesPreferences';
import { useSelection } from './useSelection';

// Parts of the file manager, split out of FilesPage: selection and sort preferences.

const entry = (id: string): FolderEntry => ({ type: 'file', id, name: `${id}.txt` }) as unknown as FolderEntry;
const files = ['a', 'b', 'c', 'd', 'e'].map(entry);

describe('useSelection', () => {
  it('toggles one entry, and Shift selects the range from the last one clicked', () => {
    const { result } = renderHook(() => useSelection(files, 'root'));
    act(() => result.current.onSelect(1, false));
    act(() => result.current.onSelect(3, true));
    expect(result.current.selectedItems.map((e) => e.id)).toEqual(['b', 'c', 'd']);
    act(() => result.current.onSelect(2, false));
    expect(result.current.selectedItems.map((e) => e.id)).toEqual(['b', 'd']);
  });

  it('keeps only what is still on screen, and clears on another folder', () => {
    const { result, rerender } = renderHook(({ items, folder }) => useSelection(items, folder), { initialProps: { items: files, folder: 'root' } });
    act(() => result.current.onSelectAll(true));
    expect(result.current.selected.size).toBe(5);
    rerender({ items: files.slice(0, 2), folder: 'root' });
    expect(result.current.selectedItems.map((e) => e.id)).toEqual(['a', 'b']);
    rerender({ items: files, folder: 'other' });
    expect(result.current.selected.size).toBe(0);
  });
});

describe('useFilesSort', () => {
  it('remembers the sort; the same column again flips the order, a new one starts from its default', () => {
    const { result, unmount } = renderHook(() => useFilesSort());
    expect(result.current.sortSpec).toEqual({ sort: 'name', order: 'asc' });
    act(() => result.current.sortBy('name'));
    expect(result.current.sortSpec).toEqual({ sort: 'name', order: 'desc' });
    act(() => result.current.sortBy('size'));
    expect(result.current.sortSpec).toEqual({ sort: 'size', order: 'desc' });
    unmount();
    expect(renderHook(() => useFilesSort()).result.current.sortSpec).toEqual({ sort: 'size', order: 'desc' });
  });
});
