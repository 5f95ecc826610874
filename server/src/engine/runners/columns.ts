import { RECORD_ID } from '../datasets';
import { closestName, quoteIdentifier } from '../expressions';
import { defaultParams, type ParamValues } from '../params';
import { isReference } from '../references';
import type { StepTypeDescription } from '../step-types/step-type';
import { paramProblem, StepParamsInvalid } from './errors';
import type { Column, SqlParam, Vars } from './types';

export { RECORD_ID };
export const q = quoteIdentifier;

/** The record id column, as every output lists it first. */
export const ID_COLUMN: Column = { name: RECORD_ID, type: 'VARCHAR' };

/** Longest list of column names quoted back in a message; the rest is "…". */
const LISTED = 20;

/** "a, b, c" for messages: the input's columns other than `_id`, as a person sees them. */
export function columnList(columns: Column[]): string {
  const names = columns.filter((c) => c.name !== RECORD_ID).map((c) => c.name);
  if (!names.length) return '(none)';
  return names.length > LISTED ? `${names.slice(0, LISTED).join(', ')}, …` : names.join(', ');
}

/** The column DuckDB would read for `name`: names match case-insensitively, quoted or not. */
export function findColumn(columns: Column[], name: string): Column | undefined {
  const exact = columns.find((c) => c.name === name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  return columns.find((c) => c.name.toLowerCase() === lower);
}

export function requireColumn(columns: Column[], name: unknown, loc: (string | number)[]): Column {
  if (typeof name !== 'string' || !name.trim()) throw paramProblem(loc, 'server.params.column');
  const found = findColumn(columns, name);
  if (!found) throw unknownColumn(loc, name, columns);
  return found;
}

/** "Column “stat” does not exist: did you mean “state”? The input has …" (the suggestion when a typo is likely). */
export function unknownColumn(loc: (string | number)[], name: string, columns: Column[]): StepParamsInvalid {
  const suggestion = closestName(
    name,
    columns.filter((c) => c.name !== RECORD_ID).map((c) => c.name),
  );
  return suggestion
    ? paramProblem(loc, 'server.steps.unknownColumnDidYouMean', { column: name, suggestion, columns: columnList(columns) })
    : paramProblem(loc, 'server.steps.unknownColumn', { column: name, columns: columnList(columns) });
}

export const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A column list param: an array of names (empty when absent). */
export function columnsParam(params: ParamValues, name: string): unknown[] {
  const value = params[name];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw paramProblem([name], 'server.params.columns');
  return value;
}

/** Fails unless the step has between `min` and `max` inputs. */
export function expectInputs<T>(inputs: T[], min: number, max: number | null): void {
  if (inputs.length < min || (max !== null && inputs.length > max)) {
    throw new StepParamsInvalid([{ key: 'server.steps.inputCount', loc: [], values: { min, max: max ?? '∞', given: inputs.length } }]);
  }
}

/**
 * The params a runner works with: the stored ones over the type's defaults, with every whole
 * `{{var.NAME}}` value of a scalar param replaced by the variable's value (text params that embed
 * references and expressions keep theirs: expressions bind them as parameters).
 */
export function resolveParams(type: StepTypeDescription, params: ParamValues, vars: Vars = {}): ParamValues {
  const out: ParamValues = defaultParams(type);
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) out[key] = value;
  for (const spec of type.params) {
    const value = out[spec.name];
    if (spec.type === 'expression' || !isReference(value)) continue;
    const [, kind, name] = /\{\{\s*(var|field)\.(.+?)\s*\}\}/.exec(value as string)!;
    if (kind !== 'var' || !Object.prototype.hasOwnProperty.call(vars, name)) {
      throw paramProblem([spec.name], 'server.steps.unresolvedReference', { reference: (value as string).trim() });
    }
    out[spec.name] = vars[name];
  }
  return out;
}

/** A variable's value as a bound parameter: scalars only. */
export function sqlValue(value: unknown, name: string): SqlParam {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw paramProblem([], 'server.steps.variableType', { name });
}

/** A type name safe to write into a CAST as it is (DuckDB's plain names, DECIMAL(p,s)); others are left uncast. */
export const PLAIN_TYPE = /^[A-Z][A-Z ]*(\(\d+,\s*\d+\))?$/;

/** What a DuckDB type is, as far as the checks here care. */
export type TypeCategory = 'number' | 'text' | 'boolean' | 'date' | 'timestamp' | 'time' | 'interval' | 'uuid' | 'blob' | 'nested' | 'unknown';

const INTEGERS = ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT'];

export function typeCategory(type: string): TypeCategory {
  const t = type.toUpperCase().trim();
  if (t.endsWith(']') || /^(STRUCT|MAP|UNION|LIST)\b/.test(t)) return 'nested';
  if (INTEGERS.includes(t) || t === 'FLOAT' || t === 'DOUBLE' || t.startsWith('DECIMAL')) return 'number';
  if (t === 'VARCHAR' || t === 'JSON') return 'text';
  if (t === 'BOOLEAN') return 'boolean';
  if (t === 'DATE') return 'date';
  if (t.startsWith('TIMESTAMP')) return 'timestamp';
  if (t.startsWith('TIME')) return 'time';
  if (t === 'INTERVAL') return 'interval';
  if (t === 'UUID') return 'uuid';
  if (t === 'BLOB') return 'blob';
  return 'unknown';
}

/**
 * The type two columns stacked by union end up with: the same type stays; integers widen to the
 * larger (signed); any other mix of numbers is DOUBLE; DATE with TIMESTAMP is TIMESTAMP; anything
 * else becomes text (VARCHAR), which every value can be written as.
 */
export function widenTypes(a: string, b: string): string {
  if (a === b) return a;
  const [ca, cb] = [typeCategory(a), typeCategory(b)];
  if (ca === 'number' && cb === 'number') {
    const signed = ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT'];
    const rank = (t: string) => {
      const i = signed.indexOf(t.toUpperCase().replace(/^U/, ''));
      // An unsigned type needs the next signed one up to hold all its values.
      return i < 0 ? -1 : t.toUpperCase().startsWith('U') ? Math.min(i + 1, signed.length - 1) : i;
    };
    const [ra, rb] = [rank(a), rank(b)];
    return ra >= 0 && rb >= 0 ? signed[Math.max(ra, rb)] : 'DOUBLE';
  }
  if ((ca === 'date' || ca === 'timestamp') && (cb === 'date' || cb === 'timestamp')) return ca === 'timestamp' ? a : b;
  return 'VARCHAR';
}

/** Names a person gives an output column: non-empty, at most 128 characters, not the record id. */
export function newColumnName(value: unknown, loc: (string | number)[]): string {
  if (typeof value !== 'string' || !value.trim()) throw paramProblem(loc, 'server.steps.columnName');
  if (value.length > 128 || value.includes('\0')) throw paramProblem(loc, 'server.steps.columnName');
  if (sameName(value, RECORD_ID)) throw paramProblem(loc, 'server.steps.recordIdColumn');
  return value;
}

/** Fails when two output columns would have the same name (DuckDB does not tell them apart by case). */
export function uniqueNames(columns: Column[], loc: (column: Column) => (string | number)[]): Column[] {
  const seen = new Set<string>();
  for (const column of columns) {
    const key = column.name.toLowerCase();
    if (seen.has(key)) throw paramProblem(loc(column), 'server.steps.duplicateOutput', { column: column.name });
    seen.add(key);
  }
  return columns;
}
