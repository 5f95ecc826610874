import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { entryKey } from './EntryViews';
import type { FolderEntry } from './filesApi';

/**
 * Which entries of the folder on screen are selected: click toggles one, Shift+click a range from
 * the last one clicked. Only what is on screen can stay selected (paging or a refresh drops what
 * went away), and another folder starts with nothing selected.
 */
export function useSelection(items: FolderEntry[], folderId: string) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const anchor = useRef<number | null>(null);

  useEffect(() => {
    setSelected(new Set());
    anchor.current = null;
  }, [folderId]);

  useEffect(() => {
    setSelected((current) => {
      const keys = new Set(items.map(entryKey));
      const next = new Set([...current].filter((k) => keys.has(k)));
      return next.size === current.size ? current : next;
    });
  }, [items]);

  const onSelect = useCallback(
    (index: number, shiftKey: boolean) => {
      // Read now: the updater may run later, after the anchor below has moved to `index`.
      const from = shiftKey ? anchor.current : null;
      setSelected((current) => {
        const next = new Set(current);
        const key = entryKey(items[index]);
        const select = !current.has(key);
        if (from !== null) {
          for (let i = Math.min(from, index); i <= Math.max(from, index); i += 1) {
            if (select) next.add(entryKey(items[i]));
            else next.delete(entryKey(items[i]));
          }
        } else if (select) next.add(key);
        else next.delete(key);
        return next;
      });
      anchor.current = index;
    },
    [items],
  );
  const onSelectAll = useCallback((select: boolean) => setSelected(select ? new Set(items.map(entryKey)) : new Set()), [items]);
  const clear = useCallback(() => setSelected(new Set()), []);
  const selectedItems = useMemo(() => items.filter((item) => selected.has(entryKey(item))), [items, selected]);

  return { selected, selectedItems, onSelect, onSelectAll, clear };
}
