import { q } from '../runners/columns';

/**
 * A row's position in the input, for SQL steps whose order or choice of rows depends on it
 * (stable sorts, first/last of a group, samples). Never part of an output: steps select
 * `* EXCLUDE (POS)`.
 */
export const POS = q('__stepwise_pos');

/** The input table with its rows numbered in the order DuckDB keeps them (duckdb-pool.ts: insertion order). */
export const withPositions = (table: string) => `(SELECT *, row_number() OVER () AS ${POS} FROM ${table})`;
