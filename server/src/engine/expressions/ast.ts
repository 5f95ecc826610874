/**
 * The typed tree an expression parses into. Every node has `at`, the 1-based character position
 * where it starts in the user's text, so later checks (an unknown column, a variable that does not
 * exist) can point at it the way parse errors do.
 *
 * Identifiers are kept as written: DuckDB matches column names case-insensitively, quoted or not,
 * so whoever compares them with a dataset's columns compares case-insensitively too.
 */
import type { TypeName } from './functions';

export type BinaryOperator = '=' | '<>' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%' | '||' | 'AND' | 'OR';

export type Expr =
  /** Kept as the digits the user wrote, so no precision is lost on the way to DuckDB. */
  | { type: 'number'; text: string; at: number }
  | { type: 'string'; value: string; at: number }
  | { type: 'boolean'; value: boolean; at: number }
  | { type: 'null'; at: number }
  /** A column of the input: `name`, `"Quoted name"` or `{{field.name}}` (the row's value of that column). */
  | { type: 'column'; name: string; at: number }
  /** `{{var.name}}`: a workflow variable, bound as a parameter when compiled. */
  | { type: 'variable'; name: string; at: number }
  | { type: 'unary'; op: '-' | '+' | 'NOT'; operand: Expr; at: number }
  | { type: 'binary'; op: BinaryOperator; left: Expr; right: Expr; at: number }
  | { type: 'is'; operand: Expr; negated: boolean; value: 'NULL' | 'TRUE' | 'FALSE'; at: number }
  | { type: 'in'; operand: Expr; list: Expr[]; negated: boolean; at: number }
  | { type: 'like'; op: 'LIKE' | 'ILIKE'; operand: Expr; pattern: Expr; negated: boolean; at: number }
  | { type: 'between'; operand: Expr; low: Expr; high: Expr; negated: boolean; at: number }
  /** `CASE [operand] WHEN … THEN … [ELSE …] END`; without an operand each `when` is a condition. */
  | { type: 'case'; operand: Expr | null; whens: { when: Expr; then: Expr }[]; else: Expr | null; at: number }
  /** `CAST(x AS t)`, `TRY_CAST(x AS t)` (null instead of an error) and `x::t`. */
  | { type: 'cast'; operand: Expr; to: TypeName; try: boolean; at: number }
  /** A function from the allow-list, by its canonical (lower-case) name. */
  | { type: 'call'; name: string; args: Expr[]; at: number };

export type ExprType = Expr['type'];
