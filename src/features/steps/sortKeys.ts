// A sort_keys param's items (server/src/engine/step-types/step-type.ts, SORT_KEYS): a column name,
// ordered in the step's default direction, or a column with a direction of its own.

export type SortKey = string | { column: string; direction?: 'ascending' | 'descending' };
export type KeyDirection = 'default' | 'ascending' | 'descending';

export const columnOf = (key: SortKey): string => (typeof key === 'string' ? key : key.column);

export const directionOf = (key: SortKey): KeyDirection => (typeof key === 'string' || !key.direction ? 'default' : key.direction);

/** The next direction a click on the key's arrow gives: the default, ascending, descending, and round again. */
export function nextDirection(key: SortKey): SortKey {
  const column = columnOf(key);
  switch (directionOf(key)) {
    case 'default':
      return { column, direction: 'ascending' };
    case 'ascending':
      return { column, direction: 'descending' };
    case 'descending':
      return column;
  }
}

/** The key for another column name, its direction kept. */
export const renamed = (key: SortKey, column: string): SortKey => (typeof key === 'string' ? column : { ...key, column });
