import type { Expr } from './ast';
import { ExpressionError } from './errors';
import { FUNCTIONS, isAllowedFunction, MAX_DECIMAL_PRECISION, TYPE_NAMES, type TypeName } from './functions';

/**
 * Turns a parsed expression into DuckDB SQL text plus the values to bind to it.
 *
 * What the SQL text is made of, and why that is safe to send to DuckDB:
 * - our own keywords, operators and parentheses (every compound node is parenthesised, so the
 *   tree decides the meaning, never DuckDB's precedence);
 * - names from the allow-lists (functions, types), written from our constants, not the user's text;
 * - column names, always double-quoted with `"` doubled, so a name is only ever a name;
 * - numbers, which the tokenizer admitted as digits, `.`, and an exponent only;
 * - `$n` parameters for every text literal and every `{{var.NAME}}`: their values travel beside
 *   the SQL and are never part of it. (DuckDB infers a parameter's type from where it stands, so
 *   `date_col > '2024-01-01'` still compares dates.)
 */
export interface CompileOptions {
  /** Values of the workflow's variables by name; an expression reading one not here is an error. */
  variables?: Readonly<Record<string, unknown>>;
  /** Number of the first parameter, when the expression goes into a query that has some already. */
  firstParam?: number;
}

export interface CompiledExpression {
  sql: string;
  /** `params[0]` binds to `$firstParam`, and so on. */
  params: unknown[];
}

const NUMBER_TEXT = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export function compileExpression(expr: Expr, options: CompileOptions = {}): CompiledExpression {
  const first = options.firstParam ?? 1;
  const params: unknown[] = [];
  const variableParams = new Map<string, string>();
  const bind = (value: unknown) => `$${first + params.push(value) - 1}`;

  const sql = (node: Expr): string => {
    switch (node.type) {
      case 'number':
        // The tree may come from elsewhere than the parser: check again what goes into the text.
        if (!NUMBER_TEXT.test(node.text)) throw new Error(`Not a number literal: ${node.text}`);
        return node.text;
      case 'string':
        return bind(node.value);
      case 'boolean':
        return node.value ? 'TRUE' : 'FALSE';
      case 'null':
        return 'NULL';
      case 'column':
        return quoteIdentifier(node.name);
      case 'variable': {
        const known = variableParams.get(node.name);
        if (known) return known;
        if (!options.variables || !Object.prototype.hasOwnProperty.call(options.variables, node.name)) {
          throw new ExpressionError('server.expressions.unknownVariable', { name: node.name, position: node.at });
        }
        const param = bind(options.variables[node.name]);
        variableParams.set(node.name, param);
        return param;
      }
      case 'unary':
        // A space after NOT; none needed after a sign, since the operand is parenthesised or a
        // plain term (and "--" can never appear: a negative operand comes back as "(-…)").
        return node.op === 'NOT' ? `(NOT ${sql(node.operand)})` : `(${node.op}${sql(node.operand)})`;
      case 'binary':
        return `(${sql(node.left)} ${node.op} ${sql(node.right)})`;
      case 'is':
        return `(${sql(node.operand)} IS ${node.negated ? 'NOT ' : ''}${node.value})`;
      case 'in':
        return `(${sql(node.operand)} ${node.negated ? 'NOT ' : ''}IN (${node.list.map(sql).join(', ')}))`;
      case 'like':
        return `(${sql(node.operand)} ${node.negated ? 'NOT ' : ''}${node.op} ${sql(node.pattern)})`;
      case 'between':
        return `(${sql(node.operand)} ${node.negated ? 'NOT ' : ''}BETWEEN ${sql(node.low)} AND ${sql(node.high)})`;
      case 'case': {
        const parts = ['CASE'];
        if (node.operand) parts.push(sql(node.operand));
        for (const w of node.whens) parts.push('WHEN', sql(w.when), 'THEN', sql(w.then));
        if (node.else) parts.push('ELSE', sql(node.else));
        parts.push('END');
        return `(${parts.join(' ')})`;
      }
      case 'cast':
        return `${node.try ? 'TRY_CAST' : 'CAST'}(${sql(node.operand)} AS ${typeSql(node.to)})`;
      case 'call': {
        if (!isAllowedFunction(node.name)) throw new Error(`Function not on the allow-list: ${node.name}`);
        if (FUNCTIONS[node.name].bare) return node.name;
        return `${node.name}(${node.args.map(sql).join(', ')})`;
      }
    }
  };

  return { sql: sql(expr), params };
}

function typeSql(type: TypeName): string {
  if (!TYPE_NAMES.includes(type.name)) throw new Error(`Type not on the allow-list: ${type.name}`);
  if (type.name !== 'DECIMAL' || type.precision === undefined) return type.name;
  const { precision, scale = 0 } = type;
  if (!Number.isInteger(precision) || !Number.isInteger(scale) || precision < 1 || precision > MAX_DECIMAL_PRECISION || scale < 0 || scale > precision) {
    throw new Error(`Bad DECIMAL(${precision}, ${scale})`);
  }
  return `DECIMAL(${precision}, ${scale})`;
}
