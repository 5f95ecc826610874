import { parseReference, type Reference } from '../references';
import { ExpressionError, shown } from './errors';

/**
 * Splits an expression into tokens. It refuses, with the position, what never belongs in an
 * expression however it is parsed: comments (`--`, `/*`, which could hide the rest of a line from
 * a reader), semicolons (a second statement), unterminated strings and names, NUL characters
 * (some drivers end the SQL text there) and characters SQL has no use for here (`$1`, `[`, `{`…).
 *
 * Such a problem ends the list as an `error` token instead of being thrown at once, so the parser
 * reports it only when it gets there: people fix the first problem in reading order
 * (`1); DROP …` is wrong at the `)` already).
 */

export type TokenKind = 'number' | 'string' | 'word' | 'quoted' | 'reference' | 'op' | 'end' | 'error';

export interface Token {
  kind: TokenKind;
  /** The token as written (for messages). */
  text: string;
  /** number: the digits; string: the text without quotes; word: upper-cased; quoted: the name; op: the operator. */
  value: string;
  /** 1-based position in characters (code points, what a person counts), not UTF-16 units. */
  at: number;
  reference?: Reference;
  /** kind 'error': what is wrong at this point of the text. */
  error?: ExpressionError;
}

/**
 * At most this many tokens. DuckDB refuses expressions nested deeper than 1000
 * (max_expression_depth), and a chain `a + b + c …` of n tokens is n/2 deep, so 1000 tokens keep
 * every accepted expression runnable. A filter or formula a person writes is far shorter.
 */
export const MAX_TOKENS = 1000;

const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
// Bare names as DuckDB reads them: letters of any script, digits (not first), `_` and `$`.
const WORD = /[\p{L}_][\p{L}\p{M}\p{N}_$]*/uy;
const PLACEHOLDER = /\{\{([^{}]*)\}\}/y;
const WHITESPACE = /\s+/y;
const OPERATORS_2 = new Set(['==', '!=', '<>', '<=', '>=', '||', '::']);
const OPERATORS_1 = new Set(['=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',']);

export function tokenize(text: string): Token[] {
  return new Scanner(text).run();
}

class Scanner {
  private readonly tokens: Token[] = [];
  private i = 0;
  // Positions are counted in code points as the scan moves forward, so an emoji or a rare CJK
  // character counts as the one character a person sees.
  private countedTo = 0;
  private codePoints = 0;

  constructor(private readonly text: string) {}

  run(): Token[] {
    try {
      while (this.i < this.text.length) this.step();
      this.tokens.push({ kind: 'end', text: '', value: '', at: this.positionOf(this.text.length) });
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      this.tokens.push({ kind: 'error', text: '', value: '', at: 0, error: err });
    }
    return this.tokens;
  }

  private positionOf(index: number): number {
    while (this.countedTo < index) {
      this.countedTo += (this.text.codePointAt(this.countedTo) ?? 0) > 0xffff ? 2 : 1;
      this.codePoints++;
    }
    return this.codePoints + 1;
  }

  private fail(key: string, index: number, token: string): ExpressionError {
    return new ExpressionError(key, { token: shown(token), position: this.positionOf(index) });
  }

  private push(kind: TokenKind, length: number, value: string, reference?: Reference): void {
    if (this.tokens.length >= MAX_TOKENS) throw new ExpressionError('server.expressions.tooLong', { limit: MAX_TOKENS });
    const start = this.i;
    this.tokens.push({ kind, text: this.text.slice(start, start + length), value, at: this.positionOf(start), ...(reference ? { reference } : {}) });
    this.i += length;
  }

  private match(re: RegExp): string | null {
    re.lastIndex = this.i;
    return re.exec(this.text)?.[0] ?? null;
  }

  private step(): void {
    const { text, i } = this;
    const ch = text[i];
    const two = text.slice(i, i + 2);

    const space = this.match(WHITESPACE);
    if (space) {
      this.i += space.length;
      return;
    }
    if (two === '--' || two === '/*') throw this.fail('server.expressions.comment', i, two);
    if (ch === ';') throw this.fail('server.expressions.semicolon', i, ch);
    if (ch === "'" || ch === '"') return this.quoted(ch);
    if (two === '{{') return this.reference();

    const number = this.match(NUMBER);
    if (number) return this.push('number', number.length, number);
    const word = this.match(WORD);
    if (word) return this.push('word', word.length, word.toUpperCase());
    if (OPERATORS_2.has(two)) return this.push('op', 2, two);
    if (OPERATORS_1.has(ch)) return this.push('op', 1, ch);
    throw this.fail('server.expressions.unexpected', i, ch === '\0' ? 'U+0000' : String.fromCodePoint(text.codePointAt(i) ?? 0));
  }

  /** 'text' or "name"; the quote doubled inside stands for itself, as in SQL. */
  private quoted(quote: "'" | '"'): void {
    const { text, i } = this;
    let j = i + 1;
    let value = '';
    for (;;) {
      const close = text.indexOf(quote, j);
      if (close === -1) throw this.fail(quote === "'" ? 'server.expressions.unterminatedString' : 'server.expressions.unterminatedName', i, quote);
      value += text.slice(j, close);
      j = close + 1;
      if (text[j] !== quote) break;
      value += quote;
      j++;
    }
    const nul = text.indexOf('\0', i);
    if (nul !== -1 && nul < j) throw this.fail('server.expressions.unexpected', nul, 'U+0000');
    if (quote === '"' && value === '') throw this.fail('server.expressions.emptyName', i, '""');
    this.push(quote === "'" ? 'string' : 'quoted', j - i, value);
  }

  /** `{{var.NAME}}` or `{{field.NAME}}`, by the same rules as every other param's references. */
  private reference(): void {
    const found = this.match(PLACEHOLDER);
    const reference = found === null ? null : parseReference(found.slice(2, -2));
    if (found === null || reference === null) {
      const raw = found ?? this.text.slice(this.i).split(/\s/)[0];
      throw new ExpressionError('server.expressions.badReference', { reference: shown(raw), position: this.positionOf(this.i) });
    }
    this.push('reference', found.length, reference.name, reference);
  }
}
