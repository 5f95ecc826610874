/**
 * SQL expressions: the conditions of Filter rows and the formulas of Add column. Pure TypeScript,
 * no dependencies, no HTTP: the params check parses them on save, the run engine compiles them.
 *
 *   text ──tokenize──► tokens ──parse──► Expr (ast.ts) ──compileExpression──► { sql, params } ──► DuckDB
 *                                          └──columnsRead / variablesRead──► checked against the input
 *
 * The language, a subset of DuckDB's expressions with DuckDB's meaning and precedence:
 * - values: 12, 3.5, 1e-3, 'text' ('' for a quote), TRUE, FALSE, NULL
 * - columns: price, "Unit price" ("" for a quote), {{field.Unit price}}; variables: {{var.rate}}
 * - operators: - + (sign), * / %, + -, || (join text), = == != <> < <= > >=,
 *   [NOT] IN (…), [NOT] LIKE / ILIKE, [NOT] BETWEEN … AND …, IS [NOT] NULL / TRUE / FALSE, NOT, AND, OR
 * - CASE [x] WHEN … THEN … [ELSE …] END, CAST(x AS type), TRY_CAST(x AS type), x::type
 * - the functions and types of functions.ts, and parentheses.
 * Nothing else: no statements, `;`, subqueries, comments, other functions or types; at most
 * MAX_TOKENS tokens and MAX_DEPTH levels of nesting.
 */
import { ExpressionError } from './errors';
import { parseExpression } from './parser';

export type { BinaryOperator, Expr } from './ast';
export { compileExpression, quoteIdentifier, type CompiledExpression, type CompileOptions } from './compile';
export { ExpressionError } from './errors';
export { FUNCTIONS, TYPE_NAMES } from './functions';
export { MAX_DEPTH, parseExpression } from './parser';
export { MAX_TOKENS } from './tokenizer';
export { closestName } from './suggest';
export { columnsRead, variablesRead } from './walk';

/** The problem with an expression's text, or null when it parses. */
export function checkExpression(text: string): ExpressionError | null {
  try {
    parseExpression(text);
    return null;
  } catch (err) {
    if (err instanceof ExpressionError) return err;
    throw err;
  }
}
