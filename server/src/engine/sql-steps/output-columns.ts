import { expectInputs, q, RECORD_ID, requireColumn, uniqueNames } from '../runners/columns';
import { paramProblem } from '../runners/errors';
import type { Column } from '../runners/types';

/** Where in a step's params a problem is: the param, then list indexes or keys. */
export type Loc = (string | number)[];

/** The columns of a one-input step's input (fails on any other number of inputs). */
export function singleInput(inputs: Column[][]): Column[] {
  expectInputs(inputs, 1, 1);
  return inputs[0];
}

/** The SELECT list naming these columns, quoted. */
export const selectList = (columns: Column[]) => columns.map((c) => q(c.name)).join(', ');

/** A data column (not `_id`) a param names. */
export function dataColumn(columns: Column[], name: unknown, loc: Loc): Column {
  const column = requireColumn(columns, name, loc);
  if (column.name === RECORD_ID) throw paramProblem(loc, 'server.steps.recordIdColumn');
  return column;
}

/** New columns go after the input's; none may clash with an input column or each other. */
export function appended(columns: Column[], added: { column: Column; loc: Loc }[]): Column[] {
  const out = [...columns, ...added.map((a) => a.column)];
  uniqueNames(out, (c) => added.find((a) => a.column === c)?.loc ?? []);
  return out;
}

/** Makes one output expression per column: the input's columns with some replaced in place. */
export const listWith = (columns: Column[], replaced: Map<Column, string>) =>
  columns.map((c) => (replaced.has(c) ? `${replaced.get(c)} AS ${q(c.name)}` : q(c.name)));
