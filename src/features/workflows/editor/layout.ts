import dagre from '@dagrejs/dagre';
import type { XYPosition } from '@xyflow/react';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';

// Where steps go on the canvas: a layered top-to-bottom layout for "Tidy up", and a free spot for
// a new step. Pure functions of the steps; the editor saves what they answer.

/** A step card's size on the canvas (StepNode is w="56", 224 px; about 90 px tall with its badge). */
export const CARD = { width: 224, height: 90 };
const GAP = { x: 56, y: 60 };

type Placed = Pick<StepOut, 'id' | 'inputs' | 'position'>;

/** True when a card at `a` would cover (part of) a card at `b`. */
export const overlaps = (a: XYPosition, b: XYPosition) => Math.abs(a.x - b.x) < CARD.width + 16 && Math.abs(a.y - b.y) < CARD.height + 16;

/** `wanted` if no card is there, else the nearest free spot to its right: a new step never hides another. */
export function freeSpot(steps: readonly Pick<StepOut, 'position'>[], wanted: XYPosition): XYPosition {
  const at = { x: Math.round(wanted.x), y: Math.round(wanted.y) };
  while (steps.some((s) => overlaps(s.position, at))) at.x += CARD.width + GAP.x;
  return at;
}

/**
 * A layered top-to-bottom layout (dagre): each step below the ones it reads, no two cards on top
 * of each other, edges running between layers rather than behind cards. The result keeps the
 * graph's top-left corner where it was, so tidying does not throw the view somewhere else.
 */
export function layoutGraph(steps: readonly Placed[]): Map<string, XYPosition> {
  const out = new Map<string, XYPosition>();
  if (steps.length === 0) return out;
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: GAP.x, ranksep: GAP.y, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(steps.map((s) => s.id));
  for (const s of steps) g.setNode(s.id, { width: CARD.width, height: CARD.height });
  for (const s of steps) for (const input of s.inputs) if (ids.has(input)) g.setEdge(input, s.id);
  dagre.layout(g);

  const left = Math.min(...steps.map((s) => s.position.x));
  const top = Math.min(...steps.map((s) => s.position.y));
  const laid = steps.map((s) => {
    const n = g.node(s.id);
    return { id: s.id, x: n.x - CARD.width / 2, y: n.y - CARD.height / 2 };
  });
  const minX = Math.min(...laid.map((p) => p.x));
  const minY = Math.min(...laid.map((p) => p.y));
  for (const p of laid) out.set(p.id, { x: Math.round(p.x - minX + left), y: Math.round(p.y - minY + top) });
  return out;
}

/** The steps whose place the layout changes, with their new place: what "Tidy up" saves. */
export function tidyMoves(steps: readonly Placed[]): { id: string; position: XYPosition }[] {
  const laid = layoutGraph(steps);
  return steps.flatMap((s) => {
    const p = laid.get(s.id)!;
    return p.x === s.position.x && p.y === s.position.y ? [] : [{ id: s.id, position: p }];
  });
}
