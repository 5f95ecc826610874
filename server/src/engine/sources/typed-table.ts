import type { RowColumn } from '../datasets';
import type { ParamValues } from '../params';
import { ID_COLUMN, sameName } from '../runners/columns';
import { paramProblem } from '../runners/errors';

/** A table typed into the step's params (table_input): its columns and rows, checked and converted to their types. */

export const TABLE_LIMITS = { rows: 1000, columns: 100, cellChars: 10_000 } as const;
export const TABLE_TYPES = { text: 'VARCHAR', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN', date: 'DATE' } as const;
export type TableType = keyof typeof TABLE_TYPES;

export interface TableColumn {
  name: string;
  type: TableType;
}

export function tableColumns(params: ParamValues): TableColumn[] {
  const list = params.columns;
  if (!Array.isArray(list) || list.length === 0) throw paramProblem(['columns'], 'server.steps.tableColumns');
  if (list.length > TABLE_LIMITS.columns)
    throw paramProblem(['columns'], 'server.steps.tableTooBig', { rows: TABLE_LIMITS.rows, columns: TABLE_LIMITS.columns });
  const columns: TableColumn[] = [];
  list.forEach((item: unknown, i) => {
    const { name, type } = (item && typeof item === 'object' && !Array.isArray(item) ? item : {}) as Record<string, unknown>;
    if (typeof name !== 'string' || !name.trim() || name.length > 128 || name.includes('\0'))
      throw paramProblem(['columns', i, 'name'], 'server.steps.columnName');
    if (sameName(name, ID_COLUMN.name)) throw paramProblem(['columns', i, 'name'], 'server.steps.recordIdColumn');
    if (columns.some((c) => sameName(c.name, name))) throw paramProblem(['columns', i, 'name'], 'server.steps.duplicateOutput', { column: name });
    if (typeof type !== 'string' || !(type in TABLE_TYPES))
      throw paramProblem(['columns', i, 'type'], 'server.params.enum', { values: Object.keys(TABLE_TYPES).join(', ') });
    columns.push({ name, type: type as TableType });
  });
  return columns;
}

export const dateText = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A typed-in cell as its column's value; text a person typed counts ("12", "true"); empty is null. */
export function tableCell(value: unknown, column: TableColumn, loc: (string | number)[], row: number): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.length > TABLE_LIMITS.cellChars)
    throw paramProblem(loc, 'server.steps.tableCellTooLong', { row, column: column.name, limit: TABLE_LIMITS.cellChars });
  if (typeof value === 'string' && value.trim() === '' && column.type !== 'text') return null;
  const wrong = () =>
    paramProblem(loc, 'server.steps.tableCell', {
      row,
      column: column.name,
      value: String(typeof value === 'object' ? JSON.stringify(value) : value).slice(0, 50),
      type: column.type,
    });
  const text = typeof value === 'string' ? value.trim() : null;
  switch (column.type) {
    case 'text':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw wrong();
    case 'integer': {
      const n = typeof value === 'number' ? value : text !== null && /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(n)) throw wrong();
      return n;
    }
    case 'number': {
      const n = typeof value === 'number' ? value : text !== null && text !== '' ? Number(text) : NaN;
      if (!Number.isFinite(n)) throw wrong();
      return n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (text !== null && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
      throw wrong();
    case 'date': {
      const m = text === null ? null : dateText.exec(text);
      if (!m || new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).toISOString().slice(0, 10) !== text) throw wrong();
      return text;
    }
  }
}

export function tableRows(params: ParamValues, columns: TableColumn[]): Record<string, unknown>[] {
  const list = params.rows;
  if (!Array.isArray(list)) throw paramProblem(['rows'], 'server.steps.tableRows');
  if (list.length > TABLE_LIMITS.rows) throw paramProblem(['rows'], 'server.steps.tableTooBig', { rows: TABLE_LIMITS.rows, columns: TABLE_LIMITS.columns });
  return list.map((row: unknown, i) => {
    const record: Record<string, unknown> = {};
    if (Array.isArray(row)) {
      if (row.length > columns.length)
        throw paramProblem(['rows', i], 'server.steps.tableRowWidth', { row: i + 1, count: row.length, expected: columns.length });
      columns.forEach((c, j) => (record[c.name] = tableCell(row[j], c, ['rows', i, j], i + 1)));
    } else if (row && typeof row === 'object') {
      for (const key of Object.keys(row)) {
        if (!columns.some((c) => c.name === key))
          throw paramProblem(['rows', i, key], 'server.steps.tableUnknownColumn', { row: i + 1, column: key.slice(0, 128) });
      }
      columns.forEach((c) => (record[c.name] = tableCell((row as Record<string, unknown>)[c.name], c, ['rows', i, c.name], i + 1)));
    } else {
      throw paramProblem(['rows', i], 'server.steps.tableRows');
    }
    return record;
  });
}

export const tableRowColumns = (columns: TableColumn[]): RowColumn[] => columns.map((c) => ({ name: c.name, type: TABLE_TYPES[c.type] }));
