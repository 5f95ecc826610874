import { Type } from '@sinclair/typebox';

// TypeBox helpers for shapes declared below the HTTP layer (the engine's step type contract), from
// which the API schemas are built. TypeBox is JSON Schema with static types, not HTTP code.

/** A string from a fixed list: `enum` in JSON Schema, a union of literals in TypeScript. */
export const StringEnum = <T extends string[]>(values: [...T], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: values, ...options });
