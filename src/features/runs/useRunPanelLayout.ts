import { useCallback, useState, type KeyboardEvent, type PointerEvent } from 'react';

// The editor's run panel: open or collapsed, and how tall, as the user left it (this browser's
// localStorage, one entry for every workflow: a layout preference, not a workflow's).

const STORAGE_KEY = 'stepwise.runPanel';
/** The panel's body never gets shorter than this (a step run row or two)… */
export const MIN_BODY_PX = 96;
/** …nor taller than this share of the window, so the canvas keeps room. */
export const MAX_BODY_SHARE = 0.7;
/** Its height before the user sets one: under a third of a 1366×850 screen's canvas. */
export const DEFAULT_BODY_PX = 220;
/** One arrow key press on the resize handle. */
const KEY_STEP_PX = 24;

interface Layout {
  open: boolean;
  height: number;
}

function read(): Layout {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Layout> | null;
    return {
      open: typeof stored?.open === 'boolean' ? stored.open : true,
      height: typeof stored?.height === 'number' && Number.isFinite(stored.height) ? stored.height : DEFAULT_BODY_PX,
    };
  } catch {
    return { open: true, height: DEFAULT_BODY_PX };
  }
}

function write(layout: Layout) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(layout));
  } catch {
    // Storage full or blocked: the layout holds for this page only.
  }
}

const bounded = (height: number) => Math.round(Math.min(Math.max(height, MIN_BODY_PX), Math.max(MIN_BODY_PX, window.innerHeight * MAX_BODY_SHARE)));

/**
 * Whether the run panel is open and its body's height, remembered; with the handlers of its resize
 * handle (a separator dragged with the pointer, or moved with the arrow keys, Home and End).
 */
export function useRunPanelLayout() {
  const [layout, setLayout] = useState(read);
  const update = useCallback((change: Partial<Layout>) => {
    setLayout((current) => {
      const next = { ...current, ...change };
      write(next);
      return next;
    });
  }, []);

  const toggle = useCallback(() => update({ open: !layout.open }), [layout.open, update]);

  const onPointerDown = useCallback(
    (event: PointerEvent<HTMLElement>) => {
      event.preventDefault();
      const handle = event.currentTarget;
      handle.setPointerCapture?.(event.pointerId);
      const startY = event.clientY;
      const startHeight = layout.height;
      // Dragging up makes the panel taller: it sits at the bottom of the canvas.
      const move = (e: globalThis.PointerEvent) => update({ height: bounded(startHeight + startY - e.clientY) });
      const end = () => {
        handle.removeEventListener('pointermove', move);
        handle.removeEventListener('pointerup', end);
        handle.removeEventListener('pointercancel', end);
      };
      handle.addEventListener('pointermove', move);
      handle.addEventListener('pointerup', end);
      handle.addEventListener('pointercancel', end);
    },
    [layout.height, update],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      const to: Record<string, number> = {
        ArrowUp: layout.height + KEY_STEP_PX,
        ArrowDown: layout.height - KEY_STEP_PX,
        Home: MIN_BODY_PX,
        End: window.innerHeight * MAX_BODY_SHARE,
      };
      if (!(event.key in to)) return;
      event.preventDefault();
      update({ height: bounded(to[event.key]) });
    },
    [layout.height, update],
  );

  return { open: layout.open, height: bounded(layout.height), toggle, resizeHandle: { onPointerDown, onKeyDown } };
}
