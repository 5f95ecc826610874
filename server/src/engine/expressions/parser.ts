import type { BinaryOperator, Expr } from './ast';
import { ExpressionError, shown } from './errors';
import { FUNCTIONS, isAllowedFunction, MAX_DECIMAL_PRECISION, TYPE_ALIASES, TYPE_NAMES, type TypeName } from './functions';
import { tokenize, type Token } from './tokenizer';

/**
 * A Pratt parser for the SQL expressions of filter conditions and formula columns: the subset of
 * DuckDB's expression grammar listed in this folder's index.ts, with DuckDB's (PostgreSQL's)
 * operator precedence, so an expression means here what DuckDB's documentation says it means.
 */

/** Deepest nesting (parentheses, calls, CASE, NOT, signs) accepted: far beyond what people write, and
 *  a recursion limit, so a hostile "((((…" is an error rather than a stack overflow. */
export const MAX_DEPTH = 64;

// Binding powers, loosest first, as in DuckDB's grammar. Comparisons, IS and the
// IN/LIKE/BETWEEN family do not chain (`a = b = c` is an error in DuckDB too).
const BP = { OR: 1, AND: 2, NOT: 3, IS: 4, COMPARE: 5, MEMBER: 6, CONCAT: 7, SUM: 8, PRODUCT: 9, SIGN: 10, CAST: 11 } as const;
const NON_ASSOCIATIVE = new Set<number>([BP.IS, BP.COMPARE, BP.MEMBER]);

const COMPARISONS: Record<string, BinaryOperator> = { '=': '=', '==': '=', '!=': '<>', '<>': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };
const ARITHMETIC: Record<string, { op: BinaryOperator; bp: number }> = {
  '||': { op: '||', bp: BP.CONCAT },
  '+': { op: '+', bp: BP.SUM },
  '-': { op: '-', bp: BP.SUM },
  '*': { op: '*', bp: BP.PRODUCT },
  '/': { op: '/', bp: BP.PRODUCT },
  '%': { op: '%', bp: BP.PRODUCT },
};

/** Words that begin a statement, a subquery or a clause: an expression never contains them, and
 *  saying so is clearer than "unexpected". DuckDB reserves all but EXISTS and VALUES, so no bare
 *  column has these names; those two only ever start a subquery or a row list here, so a column
 *  named so is written "exists". (Unreserved statement words such as DROP or DELETE can be column
 *  names in DuckDB: they stay names here, and whatever follows them is refused.) */
const STATEMENT_WORDS = new Set([
  'SELECT',
  'WITH',
  'FROM',
  'WHERE',
  'VALUES',
  'TABLE',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'INTO',
  'GROUP',
  'ORDER',
  'HAVING',
  'LIMIT',
  'OFFSET',
  'QUALIFY',
  'WINDOW',
  'RETURNING',
  'CREATE',
  'DESCRIBE',
  'SHOW',
  'SUMMARIZE',
  'PIVOT',
  'UNPIVOT',
  'ANALYZE',
  'EXISTS',
]);
/** Our grammar's own words and the rest of DuckDB's reserved words (checked against DuckDB 1.5):
 *  never a bare column name, and refused where they do not belong. */
const RESERVED = new Set([
  'AND',
  'OR',
  'NOT',
  'IS',
  'NULL',
  'TRUE',
  'FALSE',
  'IN',
  'LIKE',
  'ILIKE',
  'BETWEEN',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'CAST',
  'AS',
  'ALL',
  'ANY',
  'SOME',
  'ARRAY',
  'ASC',
  'DESC',
  'BOTH',
  'LEADING',
  'TRAILING',
  'COLLATE',
  'DISTINCT',
  'DEFAULT',
  'ON',
  'USING',
  'TO',
  'FOR',
  'LATERAL',
  'ONLY',
  'VARIADIC',
  'SYMMETRIC',
  'ASYMMETRIC',
  'SIMILAR',
  'GLOB',
]);

/** Parses an expression into its tree, or throws an ExpressionError saying what is wrong and where. */
export function parseExpression(text: string): Expr {
  return new Parser(tokenize(text)).parse();
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): Expr {
    if (this.peek().kind === 'end') throw new ExpressionError('server.expressions.empty');
    const expr = this.expression(0);
    if (this.peek().kind !== 'end') throw this.unexpected(this.peek());
    return expr;
  }

  // ---- tokens ----

  /** The token `ahead` of the current one. A problem the tokenizer found there is thrown now,
   *  when the parse reaches it, so problems are reported in reading order. */
  private peek(ahead = 0): Token {
    const token = this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)];
    if (token.error) throw token.error;
    return token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.i++;
    return token;
  }

  private isWord(token: Token, ...words: string[]): boolean {
    return token.kind === 'word' && words.includes(token.value);
  }

  private isOp(token: Token, op: string): boolean {
    return token.kind === 'op' && token.value === op;
  }

  /** `token` cannot stand here. At the end of the text that means something is missing instead. */
  private unexpected(token: Token): ExpressionError {
    if (token.kind === 'end') {
      const last = this.tokens[this.tokens.length - 2];
      return last
        ? new ExpressionError('server.expressions.incomplete', { token: shown(last.text), position: last.at })
        : new ExpressionError('server.expressions.empty');
    }
    if (token.kind === 'word' && STATEMENT_WORDS.has(token.value)) {
      return new ExpressionError('server.expressions.statement', { token: shown(token.text), position: token.at });
    }
    return new ExpressionError('server.expressions.unexpected', { token: shown(token.text), position: token.at });
  }

  /** The closing `)` or END of `opener`; at the end of the text, "missing" names what it closes. */
  private close(closer: string, opener: Token): void {
    const token = this.peek();
    if (closer === ')' ? this.isOp(token, ')') : this.isWord(token, closer)) {
      this.next();
      return;
    }
    if (token.kind === 'end')
      throw new ExpressionError('server.expressions.missingClose', { expected: closer, opener: shown(opener.text), position: opener.at });
    throw this.unexpected(token);
  }

  private expectOp(op: string): Token {
    const token = this.peek();
    if (!this.isOp(token, op)) throw this.unexpected(token);
    return this.next();
  }

  private expectWord(word: string): Token {
    const token = this.peek();
    if (!this.isWord(token, word)) throw this.unexpected(token);
    return this.next();
  }

  // ---- expressions ----

  private expression(minBp: number): Expr {
    if (++this.depth > MAX_DEPTH) {
      throw new ExpressionError('server.expressions.tooDeep', { limit: MAX_DEPTH, position: this.peek().at });
    }
    try {
      let left = this.prefix();
      let lastBp = -1;
      for (;;) {
        const token = this.peek();
        const bp = this.infixPower(token);
        if (bp === null || bp <= minBp) break;
        if (bp === lastBp && NON_ASSOCIATIVE.has(bp)) throw this.unexpected(token);
        left = this.infix(left, bp);
        lastBp = bp;
      }
      return left;
    } finally {
      this.depth--;
    }
  }

  /** How tightly the operator at `token` binds, or null when the token does not continue an expression. */
  private infixPower(token: Token): number | null {
    if (token.kind === 'op') {
      if (token.value in COMPARISONS) return BP.COMPARE;
      if (token.value in ARITHMETIC) return ARITHMETIC[token.value].bp;
      if (token.value === '::') return BP.CAST;
      return null;
    }
    if (token.kind !== 'word') return null;
    switch (token.value) {
      case 'OR':
        return BP.OR;
      case 'AND':
        return BP.AND;
      case 'IS':
        return BP.IS;
      case 'IN':
      case 'LIKE':
      case 'ILIKE':
      case 'BETWEEN':
        return BP.MEMBER;
      case 'NOT':
        // Only `NOT IN / LIKE / ILIKE / BETWEEN` continue an expression; a lone NOT here is an error.
        return this.isWord(this.peek(1), 'IN', 'LIKE', 'ILIKE', 'BETWEEN') ? BP.MEMBER : null;
      default:
        return null;
    }
  }

  private infix(left: Expr, bp: number): Expr {
    const token = this.next();
    const at = left.at;
    if (token.kind === 'op') {
      if (token.value === '::') return { type: 'cast', operand: left, to: this.typeName(), try: false, at };
      const op = COMPARISONS[token.value] ?? ARITHMETIC[token.value].op;
      return { type: 'binary', op, left, right: this.expression(bp), at };
    }
    switch (token.value) {
      case 'OR':
      case 'AND':
        return { type: 'binary', op: token.value, left, right: this.expression(bp), at };
      case 'IS': {
        const negated = this.isWord(this.peek(), 'NOT');
        if (negated) this.next();
        const value = this.peek();
        if (!this.isWord(value, 'NULL', 'TRUE', 'FALSE')) throw this.unexpected(value);
        this.next();
        return { type: 'is', operand: left, negated, value: value.value as 'NULL' | 'TRUE' | 'FALSE', at };
      }
      default: {
        const negated = token.value === 'NOT';
        const word = negated ? this.next() : token;
        if (word.value === 'IN') return { type: 'in', operand: left, list: this.inList(), negated, at };
        if (word.value === 'BETWEEN') {
          const low = this.expression(BP.MEMBER);
          this.expectWord('AND');
          return { type: 'between', operand: left, low, high: this.expression(BP.MEMBER), negated, at };
        }
        return { type: 'like', op: word.value as 'LIKE' | 'ILIKE', operand: left, pattern: this.expression(BP.MEMBER), negated, at };
      }
    }
  }

  private inList(): Expr[] {
    const open = this.expectOp('(');
    if (this.isOp(this.peek(), ')')) throw this.unexpected(this.peek());
    const list = this.commaList();
    this.close(')', open);
    return list;
  }

  private commaList(): Expr[] {
    const items = [this.expression(0)];
    while (this.isOp(this.peek(), ',')) {
      this.next();
      items.push(this.expression(0));
    }
    return items;
  }

  private prefix(): Expr {
    const token = this.next();
    const at = token.at;
    switch (token.kind) {
      case 'number':
        return { type: 'number', text: token.value, at };
      case 'string':
        return { type: 'string', value: token.value, at };
      case 'quoted':
        return { type: 'column', name: token.value, at };
      case 'reference':
        return token.reference?.kind === 'var' ? { type: 'variable', name: token.value, at } : { type: 'column', name: token.value, at };
      case 'op':
        if (token.value === '(') {
          // `(SELECT …)` ends here too: SELECT is not an expression, and unexpected() says "subquery".
          const inner = this.expression(0);
          this.close(')', token);
          return inner;
        }
        if (token.value === '-' || token.value === '+') return { type: 'unary', op: token.value, operand: this.expression(BP.SIGN), at };
        throw this.unexpected(token);
      case 'word':
        return this.word(token);
      default:
        throw this.unexpected(token);
    }
  }

  private word(token: Token): Expr {
    const at = token.at;
    switch (token.value) {
      case 'TRUE':
      case 'FALSE':
        return { type: 'boolean', value: token.value === 'TRUE', at };
      case 'NULL':
        return { type: 'null', at };
      case 'NOT':
        return { type: 'unary', op: 'NOT', operand: this.expression(BP.NOT), at };
      case 'CASE':
        return this.caseExpression(token);
      case 'CAST':
      case 'TRY_CAST': {
        const open = this.expectOp('(');
        const operand = this.expression(0);
        this.expectWord('AS');
        const to = this.typeName();
        this.close(')', open);
        return { type: 'cast', operand, to, try: token.value === 'TRY_CAST', at };
      }
    }
    if (RESERVED.has(token.value) || STATEMENT_WORDS.has(token.value)) throw this.unexpected(token);

    const name = token.text.toLowerCase();
    if (this.isOp(this.peek(), '(')) return this.call(token, name);
    // current_date and current_timestamp are written without parentheses in SQL.
    if (isAllowedFunction(name) && FUNCTIONS[name].bare) return { type: 'call', name, args: [], at };
    return { type: 'column', name: token.text, at };
  }

  private call(token: Token, name: string): Expr {
    if (!isAllowedFunction(name)) throw new ExpressionError('server.expressions.unknownFunction', { name: shown(token.text), position: token.at });
    const open = this.next();
    const args = this.isOp(this.peek(), ')') ? [] : this.commaList();
    this.close(')', open);
    const { min, max } = FUNCTIONS[name];
    if (args.length < min || (max !== null && args.length > max)) {
      const expected = max === null ? `${min}+` : min === max ? String(min) : `${min}–${max}`;
      throw new ExpressionError('server.expressions.argumentCount', { name: shown(token.text), expected, given: args.length, position: token.at });
    }
    return { type: 'call', name, args, at: token.at };
  }

  private caseExpression(start: Token): Expr {
    const operand = this.isWord(this.peek(), 'WHEN') ? null : this.expression(0);
    const whens: { when: Expr; then: Expr }[] = [];
    while (this.isWord(this.peek(), 'WHEN')) {
      this.next();
      const when = this.expression(0);
      this.expectWord('THEN');
      whens.push({ when, then: this.expression(0) });
    }
    if (whens.length === 0) throw this.unexpected(this.peek());
    let otherwise: Expr | null = null;
    if (this.isWord(this.peek(), 'ELSE')) {
      this.next();
      otherwise = this.expression(0);
    }
    this.close('END', start);
    return { type: 'case', operand, whens, else: otherwise, at: start.at };
  }

  private typeName(): TypeName {
    const token = this.peek();
    if (token.kind !== 'word') throw this.unexpected(token);
    this.next();
    const name = TYPE_ALIASES[token.value];
    if (!name) throw new ExpressionError('server.expressions.unknownType', { name: shown(token.text), position: token.at, types: TYPE_NAMES.join(', ') });
    if (name !== 'DECIMAL' || !this.isOp(this.peek(), '(')) return { name };
    // DECIMAL(precision[, scale]): both whole numbers, 1 ≤ precision ≤ 38, 0 ≤ scale ≤ precision.
    const open = this.next();
    const precision = this.wholeNumber();
    let scale = 0;
    if (this.isOp(this.peek(), ',')) {
      this.next();
      scale = this.wholeNumber();
    }
    this.close(')', open);
    if (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale > precision) {
      throw new ExpressionError('server.expressions.decimal', { limit: MAX_DECIMAL_PRECISION, position: token.at });
    }
    return { name, precision, scale };
  }

  private wholeNumber(): number {
    const token = this.peek();
    if (token.kind !== 'number' || !/^\d{1,3}$/.test(token.value)) throw this.unexpected(token);
    this.next();
    return Number(token.value);
  }
}
