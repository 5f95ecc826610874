/**
 * Which rows a virtual list shows, and where, for any row count. Browsers cap an element's height
 * (Firefox near 17.9M px, Chrome 33.5M), and 1,000,000 rows of 32 px is 32M px, so past MAX_SCROLL_HEIGHT the
 * scroll range is compressed: the scroll position is read as a fraction of the whole, and the
 * rows around that fraction are drawn where the viewport is. Below it, row i sits at i × rowHeight.
 */
export const MAX_SCROLL_HEIGHT = 15_000_000;

export interface WindowArgs {
  total: number;
  rowHeight: number;
  /** Height of the rows' part of the viewport (below the sticky header). */
  viewportHeight: number;
  scrollTop: number;
  /** Rows drawn beyond each edge, so a fast scroll shows no blank first. */
  overscan: number;
}

export interface RowWindow {
  /** Height of the scrolled body. */
  bodyHeight: number;
  first: number;
  /** Exclusive. */
  last: number;
  /** Top of row `index` in the body, in px. */
  topOf(index: number): number;
}

export function rowWindow({ total, rowHeight, viewportHeight, scrollTop, overscan }: WindowArgs): RowWindow {
  const fullHeight = total * rowHeight;
  const bodyHeight = Math.min(fullHeight, MAX_SCROLL_HEIGHT);
  const visibleRows = Math.max(1, Math.ceil(viewportHeight / rowHeight));
  const maxScroll = Math.max(1, bodyHeight - viewportHeight);
  const top = Math.min(Math.max(0, scrollTop), maxScroll);
  // The row (fractional) at the top of the viewport.
  const at = fullHeight <= MAX_SCROLL_HEIGHT ? top / rowHeight : (top / maxScroll) * Math.max(0, total - viewportHeight / rowHeight);
  const first = Math.max(0, Math.floor(at) - overscan);
  const last = Math.min(total, Math.floor(at) + visibleRows + 1 + overscan);
  return { bodyHeight, first, last, topOf: (index) => top + (index - at) * rowHeight };
}
