import { hasIdempotencyKey, idempotencyKey, recordKeyPart } from './idempotency';

describe('idempotencyKey', () => {
  it('is derived, not drawn: the same step run and records give the same UUID-shaped key', () => {
    const key = idempotencyKey('run-a', ['r1']);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotencyKey('run-a', ['r1'])).toBe(key);
    expect(idempotencyKey('run-a', new Set(['r1']))).toBe(key);
  });

  it('differs for another step run, other records, another order, and ids that would run together', () => {
    const keys = [
      idempotencyKey('run-a', ['r1']),
      idempotencyKey('run-b', ['r1']),
      idempotencyKey('run-a', ['r2']),
      idempotencyKey('run-a', ['r1', 'r2']),
      idempotencyKey('run-a', ['r2', 'r1']),
      idempotencyKey('run-a', ['r1r2']),
      idempotencyKey('run-ar1', []),
      idempotencyKey('run-a', []),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('recordKeyPart', () => {
  it("is the record's _id, or its values when it has none", () => {
    expect(recordKeyPart({ _id: 'r1', n: 1 }, '_id')).toBe('r1');
    expect(recordKeyPart({ n: 1 }, '_id')).toBe('{"n":1}');
    expect(recordKeyPart({ _id: '', n: 2 }, '_id')).toBe('{"_id":"","n":2}');
  });
});

describe('hasIdempotencyKey', () => {
  it('finds the header whatever its case', () => {
    expect(hasIdempotencyKey({ 'idempotency-KEY': 'x' })).toBe(true);
    expect(hasIdempotencyKey({ 'Idempotency-Key': 'x' })).toBe(true);
    expect(hasIdempotencyKey({ 'X-Idempotency-Key': 'x', accept: '*/*' })).toBe(false);
    expect(hasIdempotencyKey({})).toBe(false);
  });
});
