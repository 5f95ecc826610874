import type { ParamValues } from '../params';
import { renderVarTemplate } from '../references';
import { expectInputs, RECORD_ID } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column, Vars } from '../runners/types';

/** The sinks' params: their one input, choices, file names made from templates, the columns a file gets. */

const MAX_FILE_NAME = 255;

export function one(inputs: Column[][]): Column[] {
  expectInputs(inputs, 1, 1);
  return inputs[0];
}

export function enumValue<T extends string>(params: ParamValues, name: string, options: readonly T[]): T {
  const value = params[name];
  if (typeof value !== 'string' || !options.includes(value as T)) throw paramProblem([name], 'server.params.enum', { values: options.join(', ') });
  return value as T;
}

export function booleanValue(params: ParamValues, name: string): boolean {
  const value = params[name];
  if (typeof value !== 'boolean') throw paramProblem([name], 'server.params.boolean');
  return value;
}

export function integerValue(params: ParamValues, name: string, min: number, max: number): number {
  const value = params[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw paramProblem([name], 'server.params.integer');
  if (value < min) throw paramProblem([name], 'server.params.minimum', { limit: min });
  if (value > max) throw paramProblem([name], 'server.params.maximum', { limit: max });
  return value;
}

/** Optional text (a secret, a folder id): absent, null and '' are "none". */
export function optionalText(params: ParamValues, name: string): string | null {
  const value = params[name];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw paramProblem([name], 'server.params.string');
  return value;
}

/** A text param with its `{{var.x}}` replaced by the variables' values (scalars only). */
export function renderText(template: string, vars: Vars, name: string): string {
  const rendered = renderVarTemplate(template, (variable) => {
    if (!Object.prototype.hasOwnProperty.call(vars, variable)) return undefined;
    const value = vars[variable];
    if (value === null) return '';
    if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return String(value);
    throw paramProblem([name], 'server.steps.variableType', { name: variable });
  });
  if ('unresolved' in rendered) throw paramProblem([name], 'server.steps.unresolvedReference', { reference: rendered.unresolved });
  return rendered.text;
}

// A name the user's files can hold on any storage and any OS a download lands on: no path
// separators, no control characters, not "." or "..".
// eslint-disable-next-line no-control-regex
export const BAD_FILE_NAME = /[/\\\u0000-\u001f\u007f]/;

/** The file name a step writes: the template rendered, trimmed and checked (StepParamsInvalid at `["file_name"]`). */
export function fileName(params: ParamValues, vars: Vars, fallback: string): string {
  const template = params.file_name;
  if (template !== undefined && template !== null && typeof template !== 'string') throw paramProblem(['file_name'], 'server.params.string');
  const name = template?.trim() ? renderText(template, vars, 'file_name').trim() : fallback;
  if (!name || name.length > MAX_FILE_NAME || BAD_FILE_NAME.test(name) || name === '.' || name === '..') {
    throw paramProblem(['file_name'], 'server.steps.fileName', { name: name.length > 64 ? `${name.slice(0, 64)}…` : name });
  }
  return name;
}

/** The columns a file gets: the input's, without `_id` unless asked (a table of only `_id` keeps it: a file needs a column). */
export function fileColumns(columns: readonly Column[], includeRecordId: boolean): Column[] {
  const chosen = columns.filter((c) => includeRecordId || c.name !== RECORD_ID);
  return chosen.length ? chosen : columns.filter((c) => c.name === RECORD_ID);
}
