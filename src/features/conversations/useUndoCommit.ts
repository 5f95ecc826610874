import { useCallback, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { translate } from '../../i18n/currentIntl';
import { historyApi, useRestoreCommitMutation, useUndoMutation, type Commit } from '../history/historyApi';
import { addMessage } from '../notices/noticesSlice';
import type { VersionedWrite } from '../workflows/versioning';

// The commit card's one-click undo. The workflow's own undo reverts its latest commit; an agent's
// commit that is no longer the latest is reverted by restoring the state before it (its parent,
// the commit listed after it, newest first), which is itself a new commit that undo can revert.

const PAGE_SIZE = 50;
const MAX_PAGES = 20;

/** Sends a write as is, when no editor pins the workflow's version. */
const unpinned: VersionedWrite = (send) => Promise.resolve(send(undefined));

export function useUndoCommit(write: VersionedWrite = unpinned) {
  const dispatch = useAppDispatch();
  const [undo] = useUndoMutation();
  const [restore] = useRestoreCommitMutation();
  const [busy, setBusy] = useState(false);

  /** Finds the commit and the one before it (null when it is the workflow's first). */
  const locate = useCallback(
    async (workflowId: string, commitId: string): Promise<{ latest: boolean; parent: Commit | null } | null> => {
      let found: { latest: boolean } | null = null;
      for (let page = 1; page <= MAX_PAGES; page++) {
        const list = await dispatch(
          historyApi.endpoints.listCommits.initiate({ workflowId, page, page_size: PAGE_SIZE }, { subscribe: false, forceRefetch: true }),
        ).unwrap();
        // The commit was the last of the previous page: its parent opens this one.
        if (found) return { ...found, parent: list.items[0] ?? null };
        const at = list.items.findIndex((c) => c.id === commitId);
        if (at >= 0) {
          found = { latest: page === 1 && at === 0 };
          if (list.items[at + 1]) return { ...found, parent: list.items[at + 1] };
        }
        if (page * PAGE_SIZE >= list.total) break;
      }
      return found ? { ...found, parent: null } : null;
    },
    [dispatch],
  );

  /** Answers whether the commit was reverted; a refusal is explained by the notices. */
  const undoCommit = useCallback(
    async (workflowId: string, commitId: string): Promise<boolean> => {
      setBusy(true);
      try {
        const found = await locate(workflowId, commitId);
        if (found?.latest) await write((version) => undo({ workflowId, version }).unwrap());
        else if (found?.parent) {
          const parentId = found.parent.id;
          await write((version) => restore({ workflowId, commitId: parentId, version }).unwrap());
        } else {
          dispatch(addMessage({ type: 'error', text: translate('chat.commit.cannotUndo') }));
          return false;
        }
        return true;
      } catch {
        // The notices show why (a 409 for a stale version, a 404 for a workflow gone).
        return false;
      } finally {
        setBusy(false);
      }
    },
    [locate, write, undo, restore, dispatch],
  );

  return { undoCommit, busy };
}
