import { useState, type DragEvent } from 'react';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/** Files dragged from the desktop onto an element: `dragging` while they hover over it (to show
 *  the drop hint), `onDrop` gets the DataTransfer when they are let go. */
export function useFileDrop(onDrop: (data: DataTransfer) => void) {
  const [dragging, setDragging] = useState(false);
  const handlers = {
    onDragEnter: (e: DragEvent) => {
      if (hasFiles(e)) setDragging(true);
    },
    onDragOver: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (e: DragEvent) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setDragging(false);
      onDrop(e.dataTransfer);
    },
  };
  return { dragging, handlers };
}
