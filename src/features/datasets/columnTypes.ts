import type { FilterOp } from './datasetsApi';

// What a DuckDB type (as the server names it) means for the grid: its width, its filter
// operators (engine/datasets/README.md, "Filters") and the input a filter value takes.

export type ValueKind = 'number' | 'text' | 'boolean' | 'date' | 'datetime' | 'nested';

export function kindOf(type: string): ValueKind {
  const t = type.toUpperCase();
  if (t.endsWith(']') || t.startsWith('STRUCT') || t.startsWith('MAP') || t.startsWith('UNION') || t === 'JSON') return 'nested';
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|REAL|DECIMAL)/.test(t)) return 'number';
  if (t === 'BOOLEAN') return 'boolean';
  if (t === 'DATE') return 'date';
  if (t.startsWith('TIMESTAMP')) return 'datetime';
  return 'text';
}

const COMPARISONS: FilterOp[] = ['=', '!=', '<', '<=', '>', '>='];
const NULLS: FilterOp[] = ['is_null', 'is_not_null'];

export function opsFor(type: string): FilterOp[] {
  switch (kindOf(type)) {
    case 'nested':
      return NULLS;
    case 'boolean':
      return ['=', '!=', ...NULLS];
    case 'text':
      return ['contains', 'starts_with', ...COMPARISONS, 'in', ...NULLS];
    default:
      return [...COMPARISONS, 'in', ...NULLS];
  }
}

export const takesValue = (op: FilterOp) => op !== 'is_null' && op !== 'is_not_null';

/** Pixels of a column: the record id and text wide, numbers and flags narrow. */
export function widthOf(name: string, type: string): number {
  if (name === '_id') return 220;
  switch (kindOf(type)) {
    case 'boolean':
      return 96;
    case 'number':
    case 'date':
      return 130;
    case 'datetime':
      return 200;
    default:
      return 220;
  }
}

/** The value typed in a filter input, as the JSON the server compares in the column's type. */
export function filterValue(type: string, op: FilterOp, text: string): unknown {
  const one = (part: string): unknown => {
    const kind = kindOf(type);
    if (kind === 'number' && part.trim() !== '' && Number.isFinite(Number(part))) return Number(part);
    if (kind === 'boolean') return part === 'true';
    return part;
  };
  if (op === 'in')
    return text
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map(one);
  return one(text);
}

/** One cell as text; null is shown by the grid itself (see NullMark). */
export function cellText(value: unknown): string {
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}
