import type { ParamOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import { checkExpression, closestName, columnsRead, parseExpression } from '../../../server/src/engine/expressions';
import type { VariableFields } from '../variables/variablesApi';
import type { ColumnChoice } from './ColumnCombobox';
import { isReference } from './paramValues';
import { rowsOf } from './RowsControl';
import { columnOf, renamed, type SortKey } from './sortKeys';

/**
 * The columns a param may name, with their types: its input's (a join's right-hand keys come from
 * the second input, `input_index`), each name once, in the input's order.
 */
export function columnsFor(param: Pick<ParamOut, 'input_index'>, references: VariableFields | undefined): ColumnChoice[] {
  const choices: ColumnChoice[] = [];
  for (const field of references?.fields ?? []) {
    if (param.input_index !== undefined && field.input_index !== param.input_index) continue;
    if (!choices.some((c) => c.name === field.name)) choices.push({ name: field.name, type: field.type });
  }
  return choices;
}

/** A column a param names that the step's input does not have, and the one it likely meant. */
export interface UnknownColumn {
  column: string;
  suggestion: string | null;
}

/**
 * The first column a param's draft names that is not among the input's columns (compared as DuckDB
 * does, ignoring case), with a "did you mean" when a column is close: column and columns params,
 * and the columns an expression reads. Null when every name is known, or when the input's columns
 * are not all known yet (a step before it has not run). A warning, not an error: a column that a
 * change further up will add may be typed before it exists.
 */
export function unknownColumnIn(param: ParamOut, draft: unknown, references: VariableFields | undefined): UnknownColumn | null {
  if (!references || references.notes.length > 0 || references.fields.length === 0) return null;
  const known = columnsFor(param, references).map((c) => c.name);
  const lower = new Set(known.map((name) => name.toLowerCase()));
  const names = namesIn(param, draft);
  const column = names.find((name) => !lower.has(name.toLowerCase()));
  return column === undefined ? null : { column, suggestion: closestName(column, known) };
}

function namesIn(param: ParamOut, draft: unknown): string[] {
  if (param.type === 'column') return typeof draft === 'string' && draft.trim() && !isReference(draft) ? [draft.trim()] : [];
  if (param.type === 'columns') return Array.isArray(draft) ? draft.filter((name): name is string => typeof name === 'string' && !isReference(name)) : [];
  if (param.type === 'sort_keys') return Array.isArray(draft) ? (draft as SortKey[]).map(columnOf).filter((name) => !isReference(name)) : [];
  if (param.type === 'json' && param.fields?.some((f) => f.kind === 'column')) {
    // An aggregation's columns: each row's column fields, but what is allowed besides columns ("*").
    const rows = rowsOf(draft, param) ?? [];
    return param.fields
      .filter((f) => f.kind === 'column')
      .flatMap((f) => rows.map((row) => row[f.name]).filter((name): name is string => !!name && !(f.also ?? []).includes(name) && !isReference(name)));
  }
  if (param.type === 'expression' && typeof draft === 'string' && draft.trim() && !checkExpression(draft)) return columnsRead(parseExpression(draft));
  return [];
}

/** The draft with the unknown column replaced by the suggestion: a column param's value, or the item in a columns param. */
export function withSuggestion(param: ParamOut, draft: unknown, found: UnknownColumn): unknown {
  if (!found.suggestion) return draft;
  if (param.type === 'column') return found.suggestion;
  if (param.type === 'columns' && Array.isArray(draft)) return draft.map((name) => (name === found.column ? found.suggestion : name));
  if (param.type === 'sort_keys' && Array.isArray(draft))
    return (draft as SortKey[]).map((key) => (columnOf(key) === found.column ? renamed(key, found.suggestion!) : key));
  return draft;
}
