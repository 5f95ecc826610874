/**
 * Walking JSON values without recursion. Values come from people (request bodies, step params,
 * variable values), so a walk that recursed once per level could be made to overflow the stack by
 * a value nested a few thousand levels deep; every walk here keeps its own stack instead.
 */

/** Deepest nesting of arrays and objects accepted anywhere in a request (and so stored). */
export const MAX_JSON_DEPTH = 64;

export type JsonPath = (string | number)[];

export interface JsonFault {
  /** depth: nested past MAX_JSON_DEPTH; notFinite: a number that is not finite (1e400 parses as Infinity); notJson: undefined, a function, a class instance. */
  fault: 'depth' | 'notFinite' | 'notJson';
  /** Where, from the value's root: keys and indexes. */
  path: JsonPath;
}

const isPlainObject = (value: object) => {
  // A plain object of any realm (structuredClone and Jest's sandboxes make objects of another one).
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
};

/** A scalar JSON.parse cannot produce, or a non-finite number. */
const badScalar = (x: unknown) => (typeof x === 'number' ? !Number.isFinite(x) : x !== null && typeof x !== 'string' && typeof x !== 'boolean');

/**
 * Whether `value` is fit to keep as JSON: the cheap pass every request body takes. Only containers
 * go on the stack and no paths are kept (about a tenth of JSON.parse's own time).
 */
function isSoundJson(value: unknown, maxDepth: number): boolean {
  if (value === null || typeof value !== 'object') return !badScalar(value);
  const containers: object[] = [value];
  const depths: number[] = [1];
  while (containers.length) {
    const current = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return false;
    let children: unknown[];
    if (Array.isArray(current)) children = current;
    else if (isPlainObject(current)) children = Object.values(current);
    else return false;
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        containers.push(child);
        depths.push(depth + 1);
      } else if (badScalar(child)) {
        return false;
      }
    }
  }
  return true;
}

/**
 * The first thing that makes `value` unfit to keep as JSON: too deep, a non-finite number, or
 * something `JSON.parse` cannot produce. Null when it is fine. Paths are only built once a fault is
 * known to exist, so a sound body costs one pass without allocations per member.
 */
export function findJsonFault(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonFault | null {
  if (isSoundJson(value, maxDepth)) return null;
  // Each entry: a value, its path, and how many containers enclose it.
  const stack: [unknown, JsonPath, number][] = [[value, [], 0]];
  while (stack.length) {
    const [current, path, depth] = stack.pop()!;
    if (current === null || typeof current === 'string' || typeof current === 'boolean') continue;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return { fault: 'notFinite', path };
      continue;
    }
    if (typeof current !== 'object') return { fault: 'notJson', path };
    if (depth >= maxDepth) return { fault: 'depth', path };
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], [...path, i], depth + 1]);
    } else if (isPlainObject(current)) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], [...path, entries[i][0]], depth + 1]);
    } else {
      return { fault: 'notJson', path };
    }
  }
  return null;
}

/** How deeply `value` nests arrays and objects (a scalar is 0), counted without recursion. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Every string in `value` (and, with `keys`, every object key), in no particular order. */
export function stringsIn(value: unknown, { keys = false } = {}): string[] {
  const found: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length) {
    const current = stack.pop();
    if (typeof current === 'string') found.push(current);
    else if (Array.isArray(current)) stack.push(...current);
    else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        if (keys) found.push(key);
        stack.push(child);
      }
    }
  }
  return found;
}

/** Deep equality of JSON values; undefined object members count as absent (as in JSON text). */
export function sameJson(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length) {
    const [left, right] = stack.pop()!;
    if (left === right) continue;
    if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
    if (Array.isArray(left) || Array.isArray(right)) {
      if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
      for (let i = 0; i < left.length; i++) stack.push([left[i], right[i]]);
      continue;
    }
    const leftEntries = Object.entries(left).filter(([, v]) => v !== undefined);
    const rightObject = right as Record<string, unknown>;
    const rightCount = Object.values(rightObject).filter((v) => v !== undefined).length;
    if (leftEntries.length !== rightCount) return false;
    for (const [key, value] of leftEntries) {
      if (!Object.prototype.hasOwnProperty.call(rightObject, key)) return false;
      stack.push([value, rightObject[key]]);
    }
  }
  return true;
}

/**
 * A deep copy of a JSON value (what structuredClone does for these, but without recursing: the
 * native clone overflows the stack at a few thousand levels).
 */
export function cloneJson<T>(value: T): T {
  const copyOf = (item: unknown): unknown => (Array.isArray(item) ? new Array(item.length) : item !== null && typeof item === 'object' ? {} : item);
  const root = copyOf(value);
  const stack: [unknown, unknown][] = [[value, root]];
  while (stack.length) {
    const [source, target] = stack.pop()!;
    if (source === null || typeof source !== 'object') continue;
    for (const [key, child] of Object.entries(source)) {
      const copy = copyOf(child);
      (target as Record<string, unknown>)[key] = copy;
      if (copy !== child) stack.push([child, copy]);
    }
  }
  return root as T;
}

/**
 * Where `value` holds the NUL character, in a string or an object key; null when nowhere.
 * PostgreSQL cannot store U+0000 in text, so it is refused at the door rather than at the database.
 * Each stack entry links to its parent instead of carrying a copy of its whole path, so a walk
 * costs one step per member however deep the value nests (copied paths made it quadratic: a
 * minute at 100,000 levels); the path is built only for the member found.
 */
export function findNulCharacter(value: unknown): JsonPath | null {
  interface Step {
    key: string | number;
    parent: Step | null;
  }
  const pathTo = (step: Step | null, last?: string): JsonPath => {
    const path: JsonPath = last === undefined ? [] : [last];
    for (let at = step; at; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: [unknown, Step | null][] = [[value, null]];
  while (stack.length) {
    const [current, step] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return pathTo(step);
    } else if (current !== null && typeof current === 'object') {
      const isArray = Array.isArray(current);
      for (const [key, child] of Object.entries(current)) {
        if (key.includes('\u0000')) return pathTo(step, key);
        stack.push([child, { key: isArray ? Number(key) : key, parent: step }]);
      }
    }
  }
  return null;
}
