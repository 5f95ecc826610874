import { cloneJson, findJsonFault, findNulCharacter, jsonDepth, MAX_JSON_DEPTH, sameJson, stringsIn } from './json-values';

/** A value nested far deeper than any recursive walk survives (the native ones overflow near 4,000). */
const deep = (levels: number, leaf: unknown = 'x'): unknown => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { k: value };
  return value;
};

describe('JSON walks without recursion', () => {
  const huge = deep(200_000, '{{var.name}}');

  it('finds the first fault: depth, non-finite numbers, non-JSON values', () => {
    expect(findJsonFault({ a: [1, 'two', null, true, { b: 3 }] })).toBeNull();
    expect(findJsonFault(deep(MAX_JSON_DEPTH - 1))).toBeNull();
    expect(findJsonFault(deep(MAX_JSON_DEPTH))).toBeNull();
    expect(findJsonFault(deep(MAX_JSON_DEPTH + 1))).toMatchObject({ fault: 'depth' });
    expect(findJsonFault(huge)).toMatchObject({ fault: 'depth' });
    expect(findJsonFault({ a: [1, Infinity] })).toEqual({ fault: 'notFinite', path: ['a', 1] });
    expect(findJsonFault({ a: NaN })).toEqual({ fault: 'notFinite', path: ['a'] });
    expect(findJsonFault({ a: undefined })).toEqual({ fault: 'notJson', path: ['a'] });
    expect(findJsonFault({ d: new Date() })).toEqual({ fault: 'notJson', path: ['d'] });
  });

  // Over Jest’s 5 s at worst: six walks of a 200,000-level value, and Jest comparing their results (2.2 s on a loaded 2-core machine).
  it('measures, copies, compares and lists strings of a value 200,000 levels deep', () => {
    expect(jsonDepth(huge)).toBe(200_000);
    const copy = cloneJson(huge);
    expect(copy).not.toBe(huge);
    expect(sameJson(copy, huge)).toBe(true);
    expect(sameJson(deep(200_000, 'y'), huge)).toBe(false);
    expect(stringsIn(huge)).toEqual(['{{var.name}}']);
    expect(stringsIn(huge, { keys: true })).toHaveLength(100_001);
  }, 15_000);

  it('compares like JSON: key order does not count, undefined members are absent', () => {
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1, u: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1, c: 2 })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson([], {})).toBe(false);
  });
});

describe('the NUL character', () => {
  it('is found in strings and keys, at its path', () => {
    expect(findNulCharacter({ a: ['ok', 'b\u0000d'] })).toEqual(['a', 1]);
    expect(findNulCharacter({ a: { 'k\u0000': 1 } })).toEqual(['a', 'k\u0000']);
    expect(findNulCharacter('\u0000')).toEqual([]);
    expect(findNulCharacter({ a: ['\\u0000 is only text here'] })).toBeNull();
    expect(findNulCharacter(deep(100_000))).toBeNull();
  });
});
