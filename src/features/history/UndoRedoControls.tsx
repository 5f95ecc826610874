import { Group, IconButton } from '@chakra-ui/react';
import { useCallback, useEffect } from 'react';
import { LuRedo2, LuUndo2 } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { useRedoMutation, useUndoMutation } from './historyApi';
import type { VersionedWrite as Write } from '../workflows/versioning';

/** Typing in a field keeps the browser's own undo: the shortcuts only act outside text controls. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

/**
 * Undo / redo of the workflow's history, as buttons and as Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z
 * (Ctrl+Y too). Enabled from the workflow's can_undo / can_redo.
 */
export function UndoRedoControls({ workflowId, canUndo, canRedo, write }: { workflowId: string; canUndo: boolean; canRedo: boolean; write: Write }) {
  const intl = useIntl();
  const [undo, { isLoading: undoing }] = useUndoMutation();
  const [redo, { isLoading: redoing }] = useRedoMutation();
  const busy = undoing || redoing;

  const doUndo = useCallback(() => {
    if (canUndo && !busy) void write((version) => undo({ workflowId, version }));
  }, [busy, canUndo, undo, workflowId, write]);
  const doRedo = useCallback(() => {
    if (canRedo && !busy) void write((version) => redo({ workflowId, version }));
  }, [busy, canRedo, redo, workflowId, write]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || isTypingTarget(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) {
        event.preventDefault();
        doUndo();
      } else if ((key === 'z' && event.shiftKey) || (key === 'y' && !event.shiftKey)) {
        event.preventDefault();
        doRedo();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [doRedo, doUndo]);

  const undoLabel = intl.formatMessage({ id: 'editor.undo' });
  const redoLabel = intl.formatMessage({ id: 'editor.redo' });
  return (
    <Group attached>
      <IconButton variant="outline" size="sm" aria-label={undoLabel} title={`${undoLabel} (Ctrl/⌘+Z)`} disabled={!canUndo} loading={undoing} onClick={doUndo}>
        <LuUndo2 />
      </IconButton>
      <IconButton
        variant="outline"
        size="sm"
        aria-label={redoLabel}
        title={`${redoLabel} (Shift+Ctrl/⌘+Z)`}
        disabled={!canRedo}
        loading={redoing}
        onClick={doRedo}
      >
        <LuRedo2 />
      </IconButton>
    </Group>
  );
}
