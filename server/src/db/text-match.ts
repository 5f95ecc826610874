import { sql, type RawBuilder } from 'kysely';

/** The LIKE pattern of "contains text", case-insensitive, with the text's own %, _ and \\ taken literally. */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `lower(column) LIKE '%text%'` with the text's wildcards escaped, the same on SQLite and PostgreSQL. */
export const containsText = (column: string, text: string): RawBuilder<boolean> =>
  sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`;
