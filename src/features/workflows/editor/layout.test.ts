import { CARD, freeSpot, layoutGraph, overlaps, tidyMoves } from './layout';

const step = (id: string, inputs: string[], x: number, y: number) => ({ id, inputs, position: { x, y } });

describe('layoutGraph', () => {
  it('puts each step below what it reads, with no two cards on top of each other', () => {
    // Import → HTTP → Filter, plus Import → Filter drawn straight past HTTP (all in one column).
    const steps = [step('import', [], 0, 0), step('http', ['import'], 0, 120), step('filter', ['http', 'import'], 0, 240), step('side', ['import'], 0, 120)];
    const laid = layoutGraph(steps);
    expect([...laid.keys()].sort()).toEqual(['filter', 'http', 'import', 'side']);
    const at = (id: string) => laid.get(id)!;
    expect(at('http').y).toBeGreaterThanOrEqual(at('import').y + CARD.height);
    expect(at('filter').y).toBeGreaterThanOrEqual(at('http').y + CARD.height);
    expect(at('side').y).toBeGreaterThan(at('import').y);
    const ids = [...laid.keys()];
    for (const a of ids) for (const b of ids) if (a !== b) expect(overlaps(at(a), at(b))).toBe(false);
  });

  it('keeps the top-left corner of the graph where it was', () => {
    const laid = layoutGraph([step('a', [], 300, 500), step('b', ['a'], 900, 100)]);
    expect(Math.min(...[...laid.values()].map((p) => p.x))).toBe(300);
    expect(Math.min(...[...laid.values()].map((p) => p.y))).toBe(100);
  });

  it('is empty for no steps, and tidyMoves leaves a tidy graph alone', () => {
    expect(layoutGraph([]).size).toBe(0);
    const once = tidyMoves([step('a', [], 0, 0), step('b', ['a'], 0, 0)]);
    expect(once.length).toBeGreaterThan(0);
    const tidied = [step('a', [], 0, 0), step('b', ['a'], 0, 0)].map((s) => ({ ...s, position: once.find((m) => m.id === s.id)?.position ?? s.position }));
    expect(tidyMoves(tidied)).toEqual([]);
  });
});

describe('freeSpot', () => {
  it('answers the wanted place when it is free, else the nearest free place to its right', () => {
    expect(freeSpot([step('a', [], 0, 0)], { x: 0, y: 140 })).toEqual({ x: 0, y: 140 });
    const taken = [step('a', [], 0, 0), step('b', ['a'], 0, 120)];
    const spot = freeSpot(taken, { x: 0, y: 120 });
    expect(spot.y).toBe(120);
    for (const s of taken) expect(overlaps(s.position, spot)).toBe(false);
  });
});
