import { closestName } from './suggest';

describe('closestName', () => {
  const columns = ['name', 'state', 'status', 'city', 'Unit price'];

  it('finds the column a typo meant: a letter missing, extra, wrong, or two swapped; case ignored', () => {
    expect(closestName('stat', columns)).toBe('state');
    expect(closestName('staate', columns)).toBe('state');
    expect(closestName('ctiy', columns)).toBe('city');
    expect(closestName('nmae', columns)).toBe('name');
    expect(closestName('STATUS', columns)).toBe('status');
    expect(closestName('unit pirce', columns)).toBe('Unit price');
    expect(closestName('Unit  price', columns)).toBe('Unit price');
  });

  it('suggests nothing for a name that is not close to any, or for nothing typed', () => {
    expect(closestName('revenue', columns)).toBeNull();
    expect(closestName('st', columns)).toBeNull();
    expect(closestName('', columns)).toBeNull();
    expect(closestName('state', [])).toBeNull();
  });

  it('takes the closest, the first of equally close ones', () => {
    expect(closestName('statsu', columns)).toBe('status');
    expect(closestName('statu', columns)).toBe('state');
    expect(closestName('cat', ['cab', 'car'])).toBe('cab');
  });

  it('finds a typo in a long name among many, and allows three edits at most', () => {
    const many = Array.from({ length: 2000 }, (_, i) => `column_${i}_${'x'.repeat(250)}`);
    expect(closestName(`column_1999_${'x'.repeat(249)}`, many)).toBe(`column_1999_${'x'.repeat(250)}`);
    expect(closestName('abcdefghijklmnop', ['abcdefghijklmXYZ'])).toBe('abcdefghijklmXYZ');
    expect(closestName('abcdefghijklmnop', ['abcdefghijklWXYZ'])).toBeNull();
  });
});
