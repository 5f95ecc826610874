import { columnsRead, compileExpression, ExpressionError, parseExpression, variablesRead, type Expr } from '../expressions';
import { findColumn, sqlValue, typeCategory, type TypeCategory, unknownColumn } from './columns';
import { paramProblem } from './errors';
import type { Column, SqlParam, Vars } from './types';

/**
 * An expression param checked against the input it runs over, before any SQL runs:
 * - it parses (the language of `engine/expressions`: allow-listed functions, no statements or
 *   subqueries), else the parser's `server.expressions.*` problem;
 * - every column it reads exists in the input (case-insensitively, as DuckDB matches them), else
 *   "Column “x” does not exist; the input has a, b, c";
 * - columns are used as their types allow where that is clear without DuckDB: no text or dates
 *   in arithmetic, no numbers or text as conditions, no text compared with numbers;
 * - every variable it reads exists and is a scalar; variables and text literals are bound
 *   parameters.
 * All problems are StepParamsInvalid located at the param.
 */
export interface CheckedExpression {
  sql: string;
  params: SqlParam[];
  /** The DuckDB type of the result where it is clear without DuckDB, else `UNKNOWN`. */
  type: string;
  category: TypeCategory | 'null';
}

export function checkedExpression(text: unknown, param: string, columns: Column[], vars: Vars = {}, firstParam = 1): CheckedExpression {
  if (typeof text !== 'string') throw paramProblem([param], 'server.params.string');
  let expr: Expr;
  try {
    expr = parseExpression(text);
  } catch (err) {
    if (err instanceof ExpressionError) throw paramProblem([param], err.key, err.values);
    throw err;
  }
  for (const name of columnsRead(expr)) {
    if (!findColumn(columns, name)) throw unknownColumn([param], name, columns);
  }
  const bound: Record<string, SqlParam> = {};
  for (const name of variablesRead(expr)) {
    if (!Object.prototype.hasOwnProperty.call(vars, name)) continue; // compileExpression says where it is read
    try {
      bound[name] = sqlValue(vars[name], name);
    } catch {
      throw paramProblem([param], 'server.steps.variableType', { name });
    }
  }
  const typed = new TypeCheck(columns, param).infer(expr);
  let compiled;
  try {
    // Column names are written as the input spells them, so the SQL reads exactly that column.
    compiled = compileExpression(spellAsInput(expr, columns), { variables: bound, firstParam });
  } catch (err) {
    if (err instanceof ExpressionError) throw paramProblem([param], err.key, err.values);
    throw err;
  }
  return { sql: compiled.sql, params: compiled.params as SqlParam[], type: typed.type, category: typed.category === 'literal' ? 'text' : typed.category };
}

function spellAsInput(expr: Expr, columns: Column[]): Expr {
  return JSON.parse(JSON.stringify(expr), (_key, value: unknown) => {
    if (value && typeof value === 'object' && (value as Expr).type === 'column') {
      const node = value as Extract<Expr, { type: 'column' }>;
      return { ...node, name: findColumn(columns, node.name)!.name };
    }
    return value;
  }) as Expr;
}

type Typed = { category: TypeCategory | 'null' | 'literal'; type: string; column?: Column };

const TEXT_FUNCTIONS =
  'lower upper trim ltrim rtrim substr substring left right lpad rpad replace reverse concat concat_ws split_part strip_accents md5 sha256 regexp_replace regexp_extract strftime'.split(
    ' ',
  );
const NUMBER_FUNCTIONS =
  'length strpos instr abs round floor ceil ceiling trunc sign sqrt power pow exp ln log log10 date_part date_diff epoch year quarter month week day dayofweek dayofyear hour minute second'.split(
    ' ',
  );
const BOOLEAN_FUNCTIONS = 'starts_with ends_with contains regexp_matches'.split(' ');
const SAME_AS_ARGUMENT = 'coalesce ifnull nullif greatest least'.split(' ');
/** Functions whose numeric argument(s) must be numbers. */
const NUMERIC_ARGUMENT = 'abs round floor ceil ceiling trunc sign sqrt power pow exp ln log log10'.split(' ');

/** DuckDB's type of a whole-number literal: INTEGER if it fits, else BIGINT, else wider. */
function integerLiteralType(text: string): string {
  if (!/^\d+$/.test(text)) return 'UNKNOWN';
  const value = BigInt(text);
  return value <= 2147483647n ? 'INTEGER' : value <= 9223372036854775807n ? 'BIGINT' : 'UNKNOWN';
}

/**
 * The type a CAST's result has in the written dataset, as DuckDB spells it there. Parquet has no
 * 128-bit integers (they come back as DOUBLE) and some types round-trip under another name, so
 * those stay UNKNOWN rather than promise a type the file will not have.
 */
function castType(to: Extract<Expr, { type: 'cast' }>['to']): string {
  switch (to.name) {
    case 'DECIMAL':
      return to.precision === undefined ? 'DECIMAL(18,3)' : `DECIMAL(${to.precision},${to.scale ?? 0})`;
    case 'TIMESTAMPTZ':
      return 'TIMESTAMP WITH TIME ZONE';
    case 'HUGEINT':
      return 'DOUBLE';
    case 'BOOLEAN':
    case 'TINYINT':
    case 'SMALLINT':
    case 'INTEGER':
    case 'BIGINT':
    case 'FLOAT':
    case 'DOUBLE':
    case 'VARCHAR':
    case 'DATE':
    case 'TIMESTAMP':
      return to.name;
    default:
      return 'UNKNOWN';
  }
}

const unknown: Typed = { category: 'unknown', type: 'UNKNOWN' };
const ofCategory = (category: TypeCategory, type: string): Typed => ({ category, type });

class TypeCheck {
  constructor(
    private readonly columns: Column[],
    private readonly param: string,
  ) {}

  private fail(key: string, typed: Typed, operation: string, extra: Record<string, string> = {}): never {
    throw paramProblem([this.param], key, { column: typed.column!.name, type: typed.column!.type, operation, ...extra });
  }

  /** A column of a known type used where numbers are needed. */
  private number(t: Typed, operation: string) {
    if (t.column && !['number', 'unknown'].includes(t.category)) this.fail('server.steps.notNumeric', t, operation);
  }

  private condition(t: Typed, operation: string) {
    if (t.column && !['boolean', 'unknown'].includes(t.category)) this.fail('server.steps.notBoolean', t, operation);
  }

  private comparable(a: Typed, b: Typed, operation: string) {
    const loose = ['unknown', 'null', 'literal'];
    if (loose.includes(a.category) || loose.includes(b.category)) return;
    const group = (c: Typed['category']) => (c === 'date' || c === 'timestamp' ? 'time' : c);
    if (group(a.category) === group(b.category)) return;
    const col = a.column ? a : b.column ? b : null;
    if (!col) return;
    const other = col === a ? b : a;
    this.fail('server.steps.notComparable', col, operation, { other: other.column ? other.column.name : other.type });
  }

  infer(e: Expr): Typed {
    switch (e.type) {
      case 'number':
        return ofCategory('number', integerLiteralType(e.text));
      case 'string':
        return { category: 'literal', type: 'VARCHAR' };
      case 'boolean':
        return ofCategory('boolean', 'BOOLEAN');
      case 'null':
        return { category: 'null', type: 'UNKNOWN' };
      case 'variable':
        return unknown;
      case 'column': {
        const column = findColumn(this.columns, e.name)!;
        return { category: typeCategory(column.type), type: column.type, column };
      }
      case 'unary': {
        const operand = this.infer(e.operand);
        if (e.op === 'NOT') {
          this.condition(operand, 'NOT');
          return ofCategory('boolean', 'BOOLEAN');
        }
        if (operand.category !== 'interval') this.number(operand, e.op);
        return operand.category === 'number' && operand.column ? { category: 'number', type: operand.type } : ofCategory('number', 'UNKNOWN');
      }
      case 'binary': {
        const [l, r] = [this.infer(e.left), this.infer(e.right)];
        switch (e.op) {
          case 'AND':
          case 'OR':
            this.condition(l, e.op);
            this.condition(r, e.op);
            return ofCategory('boolean', 'BOOLEAN');
          case '=':
          case '<>':
          case '<':
          case '<=':
          case '>':
          case '>=':
            this.comparable(l, r, e.op);
            return ofCategory('boolean', 'BOOLEAN');
          case '||':
            return ofCategory('text', 'VARCHAR');
          case '+':
          case '-': {
            const time = [l, r].find((t) => ['date', 'timestamp', 'time', 'interval'].includes(t.category));
            if (time) return unknown;
            this.number(l, e.op);
            this.number(r, e.op);
            return ofCategory('number', 'UNKNOWN');
          }
          default:
            this.number(l, e.op);
            this.number(r, e.op);
            return ofCategory('number', 'UNKNOWN');
        }
      }
      case 'is':
        this.infer(e.operand);
        return ofCategory('boolean', 'BOOLEAN');
      case 'in': {
        const operand = this.infer(e.operand);
        for (const item of e.list) this.comparable(operand, this.infer(item), 'IN');
        return ofCategory('boolean', 'BOOLEAN');
      }
      case 'like': {
        const operand = this.infer(e.operand);
        if (operand.column && !['text', 'unknown'].includes(operand.category)) this.fail('server.steps.notText', operand, e.op);
        this.infer(e.pattern);
        return ofCategory('boolean', 'BOOLEAN');
      }
      case 'between': {
        const operand = this.infer(e.operand);
        this.comparable(operand, this.infer(e.low), 'BETWEEN');
        this.comparable(operand, this.infer(e.high), 'BETWEEN');
        return ofCategory('boolean', 'BOOLEAN');
      }
      case 'case': {
        if (e.operand) this.infer(e.operand);
        const results: Typed[] = [];
        for (const w of e.whens) {
          const when = this.infer(w.when);
          if (!e.operand) this.condition(when, 'CASE WHEN');
          results.push(this.infer(w.then));
        }
        if (e.else) results.push(this.infer(e.else));
        const known = results.filter((t) => t.category !== 'null');
        const first = known[0];
        return first && known.every((t) => t.type === first.type && t.type !== 'UNKNOWN') ? { category: first.category, type: first.type } : unknown;
      }
      case 'cast': {
        this.infer(e.operand);
        const type = castType(e.to);
        return ofCategory(typeCategory(type), type);
      }
      case 'call': {
        const args = e.args.map((a) => this.infer(a));
        if (NUMERIC_ARGUMENT.includes(e.name) && args[0]) this.number(args[0], e.name);
        if (TEXT_FUNCTIONS.includes(e.name)) return ofCategory('text', 'VARCHAR');
        if (BOOLEAN_FUNCTIONS.includes(e.name)) return ofCategory('boolean', 'BOOLEAN');
        if (NUMBER_FUNCTIONS.includes(e.name)) return ofCategory('number', 'UNKNOWN');
        if (SAME_AS_ARGUMENT.includes(e.name)) {
          const known = args.filter((t) => t.category !== 'null');
          const first = known[0];
          return first && first.category !== 'literal' && known.every((t) => t.type === first.type) ? { category: first.category, type: first.type } : unknown;
        }
        if (e.name === 'today' || e.name === 'current_date' || e.name === 'make_date') return ofCategory('date', 'DATE');
        if (e.name === 'now' || e.name === 'current_timestamp' || e.name === 'to_timestamp') return ofCategory('timestamp', 'TIMESTAMP WITH TIME ZONE');
        return unknown;
      }
    }
  }
}
