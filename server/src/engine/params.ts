import { cloneJson, findJsonFault, stringsIn } from '../lib/json-values';
import { checkExpression } from './expressions';
import { isReference, placeholdersIn } from './references';
import { SORT_KEYS, type ParamSpec, type SortDirection, type StepTypeDescription } from './step-types/step-type';

export { isReference };

/**
 * Param inputs of a step, checked against its type's param schema. Pure: no HTTP, no database.
 * Issues carry catalog keys (`server.params.*`) and the values they need, so the HTTP layer turns
 * each into `{msg, loc: ['body', 'param_inputs', param]}` in the caller's language.
 */

export type ParamValues = Record<string, unknown>;
export type ParamMode = 'replace' | 'merge';

export interface ParamIssue {
  /** The param the issue is about (its name in the step's param inputs). */
  param: string;
  /** Catalog key of the message, e.g. `server.params.number`. */
  key: string;
  values?: Record<string, string | number>;
  /** Values that are words per language (another param's label), put into the text in the reader's. */
  words?: Record<string, { en: string; 'zh-CN'?: string }>;
}

/**
 * A param's label as the step form shows it, in English and Chinese (the name when it has no label):
 * what an error about it says, never the name the param inputs use (issue 11/13).
 */
export function paramLabel(type: Pick<StepTypeDescription, 'params' | 'i18n'>, name: string): { en: string; 'zh-CN'?: string } {
  const en = type.params.find((p) => p.name === name)?.label ?? name;
  const zh = type.i18n?.['zh-CN']?.params?.[name]?.label;
  return zh ? { en, 'zh-CN': zh } : { en };
}

/**
 * Whether a `file` param may name a file called `name`: its `accept` lists the name endings the step
 * reads (".csv"), compared without regard to case ("Sales.CSV" is a CSV file); no `accept`, any file.
 */
export function acceptsFile(spec: Pick<ParamSpec, 'accept'>, name: string): boolean {
  const lower = name.trim().toLowerCase();
  return !spec.accept?.length || spec.accept.some((ending) => lower.endsWith(ending));
}

/** Longest text accepted when a param does not set its own `max_length`. */
export const DEFAULT_MAX_LENGTH = 10_000;
/** Ids of files, folders and datasets are UUIDs; anything much longer is not an id. */
const MAX_ID_LENGTH = 64;

/** The workflow variables and input fields that param values refer to, each once, sorted. */
export function referencesIn(values: unknown): { variables: string[]; fields: string[] } {
  const variables = new Set<string>();
  const fields = new Set<string>();
  for (const text of stringsIn(values)) {
    for (const ref of placeholdersIn(text).references) (ref.kind === 'var' ? variables : fields).add(ref.name);
  }
  return { variables: [...variables].sort(), fields: [...fields].sort() };
}

/** The params a new step of this type starts with: every default, copied so callers may change them. */
export function defaultParams(type: StepTypeDescription): ParamValues {
  const values: ParamValues = {};
  for (const param of type.params) {
    if (param.default !== undefined) values[param.name] = cloneJson(param.default);
  }
  return values;
}

const isMissing = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/**
 * Checks param values of a step of `type`.
 * - `replace`: `values` are all the params; a required param without a value is an issue.
 * - `merge`: `values` change some params of `current`; only those are checked, and `null` clears
 *   one (an issue only if it is required).
 * Every value may instead be a reference `{{var.NAME}}` / `{{field.NAME}}` for scalar types, and
 * text params may embed references; a malformed `{{…}}` is an issue. An `expression` must parse
 * as one (`expressions/`); its issues carry `server.expressions.*` keys.
 */
export function validateParams(type: StepTypeDescription, values: ParamValues, mode: ParamMode, current: ParamValues = {}): ParamIssue[] {
  const issues: ParamIssue[] = [];
  const specs = new Map(type.params.map((p) => [p.name, p]));

  for (const name of Object.keys(values)) {
    if (!specs.has(name)) issues.push({ param: name, key: 'server.params.unknown', values: { param: name } });
  }

  for (const spec of type.params) {
    const given = Object.prototype.hasOwnProperty.call(values, spec.name);
    if (mode === 'merge' && !given) continue;
    const value = given ? values[spec.name] : undefined;
    if (isMissing(value)) {
      if (spec.required) issues.push({ param: spec.name, key: 'server.params.required' });
      // Empty text, an empty list and null are "no value" for optional params, never a type error.
      continue;
    }
    issues.push(...checkValue(spec, value));
  }

  // Rules between params look at the values the step ends up with.
  const merged = mode === 'merge' ? { ...current, ...values } : values;
  for (const spec of type.params) {
    if (!spec.same_length_as || issues.some((i) => i.param === spec.name || i.param === spec.same_length_as)) continue;
    const mine = merged[spec.name];
    const theirs = merged[spec.same_length_as];
    if (Array.isArray(mine) && Array.isArray(theirs) && mine.length && theirs.length && mine.length !== theirs.length) {
      issues.push({
        param: spec.name,
        key: 'server.params.sameLength',
        values: { count: theirs.length },
        words: { other: paramLabel(type, spec.same_length_as) },
      });
    }
  }
  return issues;
}

function checkValue(spec: ParamSpec, value: unknown): ParamIssue[] {
  const issue = (key: string, values?: ParamIssue['values']): ParamIssue[] => [{ param: spec.name, key, ...(values ? { values } : {}) }];
  const scalar = spec.type !== 'columns' && spec.type !== 'sort_keys' && spec.type !== 'json';
  if (scalar && isReference(value)) return [];

  switch (spec.type) {
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return issue('server.params.number');
      if (spec.integer && !Number.isInteger(value)) return issue('server.params.integer');
      if (spec.min !== undefined && value < spec.min) return issue('server.params.minimum', { limit: spec.min });
      if (spec.max !== undefined && value > spec.max) return issue('server.params.maximum', { limit: spec.max });
      return [];
    }
    case 'boolean':
      return typeof value === 'boolean' ? [] : issue('server.params.boolean');
    case 'enum':
      return typeof value === 'string' && (spec.options ?? []).includes(value) ? [] : issue('server.params.enum', { values: (spec.options ?? []).join(', ') });
    case 'column':
      if (typeof value !== 'string' || !value.trim()) return issue('server.params.column');
      return checkLength(spec, value);
    case 'columns': {
      if (!Array.isArray(value)) return issue('server.params.columns');
      if (value.some((c) => typeof c !== 'string' || !c.trim())) return issue('server.params.columns');
      const seen = new Set<string>();
      for (const column of value as string[]) {
        if (seen.has(column)) return issue('server.params.duplicateColumn', { column });
        seen.add(column);
      }
      return (value as string[]).flatMap((c) => malformedReferences(spec, c));
    }
    case 'sort_keys': {
      const keys = sortKeysOf(value);
      if (!keys) return issue('server.params.sortKeys', { max: SORT_KEYS.maxItems });
      const seen = new Set<string>();
      for (const { column } of keys) {
        if (seen.has(column)) return issue('server.params.duplicateColumn', { column });
        seen.add(column);
      }
      return keys.flatMap((k) => malformedReferences(spec, k.column));
    }
    case 'file':
    case 'folder':
    case 'dataset':
      if (typeof value !== 'string' || !value.trim() || value.length > MAX_ID_LENGTH) return issue(`server.params.${spec.type}`);
      return [];
    case 'secret':
      if (typeof value !== 'string') return issue('server.params.string');
      return checkLength(spec, value);
    case 'json':
      return isJsonValue(value) ? stringsIn(value, { keys: true }).flatMap((s) => malformedReferences(spec, s)) : issue('server.params.json');
    case 'string':
    case 'template':
    case 'code':
      if (typeof value !== 'string') return issue('server.params.string');
      return [...checkLength(spec, value), ...malformedReferences(spec, value)];
    case 'expression': {
      if (typeof value !== 'string') return issue('server.params.string');
      const textIssues = [...checkLength(spec, value), ...malformedReferences(spec, value)];
      if (textIssues.length) return textIssues;
      // Parsed on save, so a broken condition is refused where it is typed, not when the workflow runs.
      const problem = checkExpression(value);
      return problem ? issue(problem.key, problem.values) : [];
    }
  }
}

function checkLength(spec: ParamSpec, value: string): ParamIssue[] {
  const limit = spec.max_length ?? DEFAULT_MAX_LENGTH;
  return value.length > limit ? [{ param: spec.name, key: 'server.params.maxLength', values: { limit } }] : [];
}

function malformedReferences(spec: ParamSpec, text: string): ParamIssue[] {
  const [first] = placeholdersIn(text).malformed;
  return first ? [{ param: spec.name, key: 'server.params.badReference', values: { reference: first } }] : [];
}

/** What `JSON.parse` can produce (no undefined, functions, NaN or class instances), nested at most MAX_JSON_DEPTH deep. */
const isJsonValue = (value: unknown): boolean => findJsonFault(value) === null;

/**
 * A `sort_keys` value as columns and directions (`direction` null: the step's default), or null
 * when it is not one: a list of at most SORT_KEYS.maxItems items, each a column name or
 * `{column, direction}` with nothing else in it.
 */
export function sortKeysOf(value: unknown): { column: string; direction: SortDirection | null }[] | null {
  if (!Array.isArray(value) || value.length > SORT_KEYS.maxItems) return null;
  const keys: { column: string; direction: SortDirection | null }[] = [];
  for (const item of value) {
    if (typeof item === 'string' && item.trim()) keys.push({ column: item, direction: null });
    else if (item && typeof item === 'object' && !Array.isArray(item)) {
      const { column, direction, ...rest } = item as Record<string, unknown>;
      if (typeof column !== 'string' || !column.trim() || Object.keys(rest).length) return null;
      if (direction !== undefined && !(SORT_KEYS.directions as readonly unknown[]).includes(direction)) return null;
      keys.push({ column, direction: (direction as SortDirection | undefined) ?? null });
    } else return null;
  }
  return keys;
}
