import type { ParamValues } from '../params';
import { paramProblem } from '../runners/errors';

/**
 * Reading the SQL steps' params after `resolveParams` applied defaults and variables: each
 * checks the kind of value and answers it, or throws StepParamsInvalid at the param, so a value
 * only a variable brought in is checked as strictly as a typed-in one.
 */

export function enumParam(params: ParamValues, name: string, options: string[]): string {
  const value = params[name];
  if (typeof value !== 'string' || !options.includes(value)) throw paramProblem([name], 'server.params.enum', { values: options.join(', ') });
  return value;
}

export function integerParam(params: ParamValues, name: string, min: number): number {
  const value = params[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw paramProblem([name], 'server.params.integer');
  if (value < min) throw paramProblem([name], 'server.params.minimum', { limit: min });
  return value;
}

export function booleanParam(params: ParamValues, name: string): boolean {
  if (typeof params[name] !== 'boolean') throw paramProblem([name], 'server.params.boolean');
  return params[name] as boolean;
}

export function textParam(params: ParamValues, name: string, min: number, max: number): string {
  const value = params[name];
  if (typeof value !== 'string' || value.includes('\0')) throw paramProblem([name], 'server.params.string');
  if (value.length < min) throw paramProblem([name], 'server.params.required');
  if (value.length > max) throw paramProblem([name], 'server.params.maxLength', { limit: max });
  return value;
}

/** Longest JSON list a setting may hold (casts, fills, paths, groups). */
export const MAX_ITEMS = 200;

/** A `json` param holding a list of objects: 1 to `max` of them, each an object. */
export function objectList(params: ParamValues, name: string, max = MAX_ITEMS): Record<string, unknown>[] {
  const value = params[name];
  if (!Array.isArray(value) || !value.length || value.length > max) throw paramProblem([name], 'server.steps.badList', { limit: max });
  return value.map((item: unknown, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw paramProblem([name, i], 'server.steps.badList', { limit: max });
    return item as Record<string, unknown>;
  });
}
