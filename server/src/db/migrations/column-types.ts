import type { Dialect } from '../database';

/** A point in time: timestamptz on PostgreSQL, ISO-8601 text on SQLite (sorts and compares as text). */
export const timestampType = (dialect: Dialect) => (dialect === 'postgres' ? 'timestamptz' : 'text');
