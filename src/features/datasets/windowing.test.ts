import { MAX_SCROLL_HEIGHT, rowWindow } from './windowing';

const base = { rowHeight: 32, viewportHeight: 480, overscan: 0 };

describe('rowWindow', () => {
  it('places row i at i × height while the rows fit under the cap', () => {
    const win = rowWindow({ ...base, total: 1000, scrollTop: 3200 });
    expect([win.bodyHeight, win.first, win.last]).toEqual([32_000, 100, 116]);
    expect(win.topOf(100)).toBe(3200);
  });

  it('reaches the first and the very last of a million rows in a compressed range', () => {
    const total = 1_000_000;
    const top = rowWindow({ ...base, total, scrollTop: 0 });
    expect([top.bodyHeight, top.first, top.topOf(0)]).toEqual([MAX_SCROLL_HEIGHT, 0, 0]);
    const bottom = rowWindow({ ...base, total, scrollTop: MAX_SCROLL_HEIGHT });
    expect(bottom.last).toBe(total);
    // The last row ends exactly at the bottom of the viewport.
    const maxScroll = MAX_SCROLL_HEIGHT - base.viewportHeight;
    expect(bottom.topOf(total - 1) + base.rowHeight).toBeCloseTo(maxScroll + base.viewportHeight);
  });

  it('draws nothing for no rows, and clamps a scroll position past the end', () => {
    expect(rowWindow({ ...base, total: 0, scrollTop: 500 })).toMatchObject({ bodyHeight: 0, first: 0, last: 0 });
    const win = rowWindow({ ...base, total: 20, scrollTop: 10_000 });
    expect(win.last).toBe(20);
  });
});
