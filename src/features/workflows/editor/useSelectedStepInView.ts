import { useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, useRef, type RefObject } from 'react';

/** Room left between a revealed step and the canvas's edge, in screen pixels. */
const MARGIN = 24;

/**
 * Keeps the canvas looking at what it showed, and the one selected step inside it. Opening a
 * step's settings narrows the canvas, and React Flow keeps the viewport's top-left corner where it
 * was, so the graph slid right and a step near the right edge went under the settings panel just
 * as the user picked it. When the canvas resizes, the view keeps its centre; when that (or a new
 * selection) leaves the selected step partly outside, the view pans (never zooms) by the least
 * that brings it back in.
 */
export function useSelectedStepInView(container: RefObject<HTMLElement | null>, selected: ReadonlySet<string>): void {
  const flow = useReactFlow();
  const size = useRef<{ width: number; height: number } | null>(null);

  const follow = useCallback(() => {
    const box = container.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    let { x, y } = flow.getViewport();
    const { zoom } = flow.getViewport();
    // Keep the centre: half of what the canvas gained or lost on each side.
    const before = size.current;
    size.current = { width: box.width, height: box.height };
    if (before) {
      x += (box.width - before.width) / 2;
      y += (box.height - before.height) / 2;
    }
    const node = selected.size === 1 ? flow.getInternalNode([...selected][0]) : undefined;
    if (node?.measured.width && node.measured.height) {
      x += shift(node.internals.positionAbsolute.x * zoom + x, node.measured.width * zoom, box.width);
      y += shift(node.internals.positionAbsolute.y * zoom + y, node.measured.height * zoom, box.height);
    }
    const now = flow.getViewport();
    if (x !== now.x || y !== now.y) void flow.setViewport({ x, y, zoom }, { duration: before && before.width !== box.width ? 0 : 200 });
  }, [container, flow, selected]);

  useEffect(() => {
    follow();
    const element = container.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => follow());
    observer.observe(element);
    return () => observer.disconnect();
  }, [container, follow]);
}

/** How far to move something at `start` of length `size` so it lies within 0..`room` (its start first when it cannot fit). */
function shift(start: number, size: number, room: number): number {
  if (start < MARGIN) return MARGIN - start;
  const overflow = start + size - (room - MARGIN);
  return overflow > 0 ? -Math.min(overflow, start - MARGIN) : 0;
}
