import { useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, type RefObject } from 'react';

/** Room left between a revealed step and the canvas's edge, in screen pixels. */
const MARGIN = 24;

/**
 * Keeps the one selected step inside the canvas. Opening its settings narrows the canvas, and
 * React Flow keeps the viewport's top-left corner where it was, so a step near the right edge
 * slid under the settings panel just as the user picked it. When the canvas resizes or the
 * selection changes, the view pans (never zooms) by the least that brings the step back in.
 */
export function useSelectedStepInView(container: RefObject<HTMLElement | null>, selected: ReadonlySet<string>): void {
  const flow = useReactFlow();

  const reveal = useCallback(() => {
    const box = container.current?.getBoundingClientRect();
    if (selected.size !== 1 || !box || box.width === 0) return;
    const node = flow.getInternalNode([...selected][0]);
    if (!node?.measured.width || !node.measured.height) return;
    const { x, y, zoom } = flow.getViewport();
    const left = node.internals.positionAbsolute.x * zoom + x;
    const top = node.internals.positionAbsolute.y * zoom + y;
    const dx = shift(left, node.measured.width * zoom, box.width);
    const dy = shift(top, node.measured.height * zoom, box.height);
    if (dx !== 0 || dy !== 0) void flow.setViewport({ x: x + dx, y: y + dy, zoom }, { duration: 200 });
  }, [container, flow, selected]);

  useEffect(() => {
    reveal();
    const element = container.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => reveal());
    observer.observe(element);
    return () => observer.disconnect();
  }, [container, reveal]);
}

/** How far to move something at `start` of length `size` so it lies within 0..`room` (its start first when it cannot fit). */
function shift(start: number, size: number, room: number): number {
  if (start < MARGIN) return MARGIN - start;
  const overflow = start + size - (room - MARGIN);
  return overflow > 0 ? -Math.min(overflow, start - MARGIN) : 0;
}
