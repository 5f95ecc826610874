import { translate } from '../../i18n/messages';
import { checkExpression, columnsRead, compileExpression, MAX_DEPTH, MAX_TOKENS, parseExpression, TYPE_NAMES, variablesRead, type Expr } from '.';
import { ExpressionError } from './errors';

/** The tree as a compact prefix form, so each case reads on one line. */
function show(e: Expr): string {
  switch (e.type) {
    case 'number':
      return e.text;
    case 'string':
      return `'${e.value}'`;
    case 'boolean':
      return String(e.value).toUpperCase();
    case 'null':
      return 'NULL';
    case 'column':
      return `col:${e.name}`;
    case 'variable':
      return `var:${e.name}`;
    case 'unary':
      return `(${e.op} ${show(e.operand)})`;
    case 'binary':
      return `(${e.op} ${show(e.left)} ${show(e.right)})`;
    case 'is':
      return `(IS${e.negated ? ' NOT' : ''} ${show(e.operand)} ${e.value})`;
    case 'in':
      return `(${e.negated ? 'NOT ' : ''}IN ${show(e.operand)} [${e.list.map(show).join(' ')}])`;
    case 'like':
      return `(${e.negated ? 'NOT ' : ''}${e.op} ${show(e.operand)} ${show(e.pattern)})`;
    case 'between':
      return `(${e.negated ? 'NOT ' : ''}BETWEEN ${show(e.operand)} ${show(e.low)} ${show(e.high)})`;
    case 'case':
      return `(CASE${e.operand ? ` ${show(e.operand)}` : ''}${e.whens.map((w) => ` [${show(w.when)} ${show(w.then)}]`).join('')}${e.else ? ` ELSE ${show(e.else)}` : ''})`;
    case 'cast':
      return `(${e.try ? 'TRY_CAST' : 'CAST'} ${show(e.operand)} ${e.to.name}${e.to.precision !== undefined ? `(${e.to.precision},${e.to.scale})` : ''})`;
    case 'call':
      return `${e.name}(${e.args.map(show).join(' ')})`;
  }
}

const parsed = (text: string) => show(parseExpression(text));

/** The error an expression fails with, as key and values. */
function failure(text: string): { key: string; values: Record<string, string | number> } {
  const error = checkExpression(text);
  if (!error) throw new Error(`expected "${text}" to fail`);
  return { key: error.key, values: error.values };
}

describe('parseExpression: what it accepts, with DuckDB precedence', () => {
  it.each([
    ["country = 'NL'", "(= col:country 'NL')"],
    ["age >= 18 and country = 'NL'", "(AND (>= col:age 18) (= col:country 'NL'))"],
    ['a OR b AND c', '(OR col:a (AND col:b col:c))'],
    ['(a OR b) AND c', '(AND (OR col:a col:b) col:c)'],
    ['NOT a = b AND c', '(AND (NOT (= col:a col:b)) col:c)'],
    ['NOT a IS NULL', '(NOT (IS col:a NULL))'],
    ['1 + 2 * 3 - 4 / 5 % 6', '(- (+ 1 (* 2 3)) (% (/ 4 5) 6))'],
    ['-x::int * 2', '(* (- (CAST col:x INTEGER)) 2)'],
    ['- - 1', '(- (- 1))'],
    ["first || ' ' || last = 'a b'", "(= (|| (|| col:first ' ') col:last) 'a b')"],
    ['a + b > c - 1', '(> (+ col:a col:b) (- col:c 1))'],
    ['x == 1 AND y != 2 AND z <> 3', '(AND (AND (= col:x 1) (<> col:y 2)) (<> col:z 3))'],
    ['x < 1 OR x <= 2 OR x > 3 OR x >= 4', '(OR (OR (OR (< col:x 1) (<= col:x 2)) (> col:x 3)) (>= col:x 4))'],
    ['name IS NOT NULL AND flag IS TRUE AND other IS NOT FALSE', '(AND (AND (IS NOT col:name NULL) (IS col:flag TRUE)) (IS NOT col:other FALSE))'],
    ["country NOT IN ('NL', 'BE') OR x IN (1)", "(OR (NOT IN col:country ['NL' 'BE']) (IN col:x [1]))"],
    ["name ILIKE 'a%' AND name NOT LIKE '%z'", "(AND (ILIKE col:name 'a%') (NOT LIKE col:name '%z'))"],
    ['price NOT BETWEEN 1 AND 10 AND x', '(AND (NOT BETWEEN col:price 1 10) col:x)'],
    ['price BETWEEN 1 + 1 AND 2 * 5', '(BETWEEN col:price (+ 1 1) (* 2 5))'],
    ["CASE WHEN x > 1 THEN 'big' WHEN x > 0 THEN 'small' ELSE 'none' END", "(CASE [(> col:x 1) 'big'] [(> col:x 0) 'small'] ELSE 'none')"],
    ["case status when 'paid' then 1 end", "(CASE col:status ['paid' 1])"],
    ['CAST(price AS DECIMAL(10, 2))', '(CAST col:price DECIMAL(10,2))'],
    ['TRY_CAST(x AS numeric) + x::text::date', '(+ (TRY_CAST col:x DECIMAL) (CAST (CAST col:x VARCHAR) DATE))'],
    ["lower(Name) = 'bob'", "(= lower(col:Name) 'bob')"],
    ["concat(first_name, ' ', last_name)", "concat(col:first_name ' ' col:last_name)"],
    ['COALESCE(a, b, 0)', 'coalesce(col:a col:b 0)'],
    ["now() > current_date AND current_timestamp() > date_trunc('day', ts)", "(AND (> now() current_date()) (> current_timestamp() date_trunc('day' col:ts)))"],
    ['length > 3', '(> col:length 3)'],
    // Words DuckDB does not reserve stay column names, statement words included.
    ['filter OR over OR escape OR drop OR "select"', '(OR (OR (OR (OR col:filter col:over) col:escape) col:drop) col:select)'],
    ["1e3 + .5 + 1.5E-2 + 2. + 'it''s'", "(+ (+ (+ (+ 1e3 .5) 1.5E-2) 2.) 'it's')"],
    ['TRUE AND null', '(AND TRUE NULL)'],
    ['"Unit price" * "a""b" > 价格', '(> (* col:Unit price col:a"b) col:价格)'],
    ['"a"""', 'col:a"'],
    ['{{field.Unit price}} > {{ var.threshold }}', '(> col:Unit price var:threshold)'],
    ['x is not null and Y In (1) And z::Int > 0', '(AND (AND (IS NOT col:x NULL) (IN col:Y [1])) (> (CAST col:z INTEGER) 0))'],
    ['  x\n\t> 1  ', '(> col:x 1)'],
    ['(((x)))', 'col:x'],
    ['(a = b) = TRUE', '(= (= col:a col:b) TRUE)'],
  ])('%s', (text, tree) => {
    expect(parsed(text)).toBe(tree);
  });

  it('records where each node starts, in characters', () => {
    const expr = parseExpression("'😀' = price");
    expect(expr).toMatchObject({ type: 'binary', at: 1, right: { type: 'column', name: 'price', at: 7 } });
  });
});

describe('parseExpression: what it refuses, and where', () => {
  it.each([
    ["country = = 'NL' ((", 'server.expressions.unexpected', { token: '=', position: 11 }],
    // The first problem in reading order is the one reported.
    ['1); DROP TABLE x; --', 'server.expressions.unexpected', { token: ')', position: 2 }],
    ["x = 'it''s' OR 1=1; --", 'server.expressions.semicolon', { token: ';', position: 19 }],
    ["name = 'x'; DROP TABLE t", 'server.expressions.semicolon', { token: ';', position: 11 }],
    ['(SELECT 1)', 'server.expressions.statement', { token: 'SELECT', position: 2 }],
    ['x IN (select id from t)', 'server.expressions.statement', { token: 'select', position: 7 }],
    ['EXISTS (SELECT 1)', 'server.expressions.statement', { token: 'EXISTS', position: 1 }],
    ['x = 1 UNION SELECT password FROM users', 'server.expressions.statement', { token: 'UNION', position: 7 }],
    ['DROP TABLE x', 'server.expressions.statement', { token: 'TABLE', position: 6 }],
    ['x = 1 -- and the rest', 'server.expressions.comment', { token: '--', position: 7 }],
    ['x /* c */ = 1', 'server.expressions.comment', { token: '/*', position: 3 }],
    ["x = 'abc", 'server.expressions.unterminatedString', { token: "'", position: 5 }],
    ['"a"" = 1', 'server.expressions.unterminatedName', { token: '"', position: 1 }],
    ['"" = 1', 'server.expressions.emptyName', { token: '""', position: 1 }],
    ['foo(x) > 1', 'server.expressions.unknownFunction', { name: 'foo', position: 1 }],
    ["read_csv('/etc/passwd') IS NULL", 'server.expressions.unknownFunction', { name: 'read_csv', position: 1 }],
    ["getenv('HOME') = 'x'", 'server.expressions.unknownFunction', { name: 'getenv', position: 1 }],
    ['sum(x) > 1', 'server.expressions.unknownFunction', { name: 'sum', position: 1 }],
    ['x = lower(a, b)', 'server.expressions.argumentCount', { name: 'lower', expected: '1', given: 2, position: 5 }],
    ['substr(a) = 1', 'server.expressions.argumentCount', { name: 'substr', expected: '2–3', given: 1, position: 1 }],
    ['coalesce() IS NULL', 'server.expressions.argumentCount', { name: 'coalesce', expected: '1+', given: 0, position: 1 }],
    ['CAST(x AS blob)', 'server.expressions.unknownType', { name: 'blob', position: 11, types: TYPE_NAMES.join(', ') }],
    ['x::int[]', 'server.expressions.unexpected', { token: '[', position: 7 }],
    ['CAST(x AS DECIMAL(40, 2))', 'server.expressions.decimal', { limit: 38, position: 11 }],
    ['x +', 'server.expressions.incomplete', { token: '+', position: 3 }],
    ['x BETWEEN 1', 'server.expressions.incomplete', { token: '1', position: 11 }],
    ['(x + 1', 'server.expressions.missingClose', { expected: ')', opener: '(', position: 1 }],
    ['lower(x', 'server.expressions.missingClose', { expected: ')', opener: '(', position: 6 }],
    ['CASE WHEN x THEN 1', 'server.expressions.missingClose', { expected: 'END', opener: 'CASE', position: 1 }],
    ['CASE x END', 'server.expressions.unexpected', { token: 'END', position: 8 }],
    ['x IN ()', 'server.expressions.unexpected', { token: ')', position: 7 }],
    ['a = b = c', 'server.expressions.unexpected', { token: '=', position: 7 }],
    ['a LIKE b LIKE c', 'server.expressions.unexpected', { token: 'LIKE', position: 10 }],
    ['a b', 'server.expressions.unexpected', { token: 'b', position: 3 }],
    ['x NOT 1', 'server.expressions.unexpected', { token: 'NOT', position: 3 }],
    ['x = $1', 'server.expressions.unexpected', { token: '$', position: 5 }],
    ['t.x > 1', 'server.expressions.unexpected', { token: '.', position: 2 }],
    ["E'\\x41' = x", 'server.expressions.unexpected', { token: "'\\x41'", position: 2 }],
    ['x = {{var.1bad}}', 'server.expressions.badReference', { reference: '{{var.1bad}}', position: 5 }],
    ['x = {{var.x', 'server.expressions.badReference', { reference: '{{var.x', position: 5 }],
    ["x = 'a\0b'", 'server.expressions.unexpected', { token: 'U+0000', position: 7 }],
    ["'😀' = x y", 'server.expressions.unexpected', { token: 'y', position: 9 }],
    ['', 'server.expressions.empty', {}],
    ['   ', 'server.expressions.empty', {}],
  ])('%j', (text, key, values) => {
    expect(failure(text)).toEqual({ key, values });
  });

  it('says it in the reader’s language', () => {
    const { key, values } = failure("country = = 'NL' ((");
    expect(translate('en', key, values)).toBe('Unexpected “=” at position 11');
    expect(translate('zh-CN', key, values)).toBe('第 11 个字符处出现意外的 “=”');
    const missing = failure('(x + 1');
    expect(translate('en', missing.key, missing.values)).toBe('Missing “)” to close the “(” at position 1');
    const unknown = failure('foo(x)');
    expect(translate('en', unknown.key, unknown.values)).toBe('Unknown function “foo” at position 1');
    const string = failure("x = 'abc");
    expect(translate('en', string.key, string.values)).toBe('Unterminated string: the quote at position 5 is never closed');
  });

  it('has a text in both languages for every error, with every value filled in', () => {
    const samples: Record<string, string> = {
      unexpected: 'x = = 1',
      incomplete: 'x +',
      missingClose: '(x',
      statement: '(SELECT 1)',
      semicolon: 'x;',
      comment: 'x --',
      unterminatedString: "'x",
      unterminatedName: '"x',
      emptyName: '""',
      badReference: 'x = {{y}}',
      unknownFunction: 'foo()',
      argumentCount: 'lower()',
      unknownType: 'CAST(x AS blob)',
      decimal: 'CAST(x AS DECIMAL(99))',
      empty: '',
      tooDeep: '('.repeat(MAX_DEPTH + 1),
      tooLong: 'x+'.repeat(MAX_TOKENS),
    };
    for (const [name, text] of Object.entries(samples)) {
      const { key, values } = failure(text);
      expect(key).toBe(`server.expressions.${name}`);
      // A placeholder left unfilled reads "{name}"; a reference the user wrote ("{{y}}") is fine.
      for (const language of ['en', 'zh-CN'] as const) expect(translate(language, key, values)).not.toMatch(/(?<!\{)\{\w+\}(?!\})/);
    }
  });

  it('refuses hostile nesting with an error, never a stack overflow', () => {
    const deep = '('.repeat(10_000) + '1' + ')'.repeat(10_000);
    expect(failure(deep)).toEqual({ key: 'server.expressions.tooDeep', values: { limit: MAX_DEPTH, position: MAX_DEPTH + 1 } });
    expect(failure('('.repeat(10_000) + '1')).toMatchObject({ key: 'server.expressions.tooDeep' });
    expect(failure('NOT '.repeat(500) + 'x')).toMatchObject({ key: 'server.expressions.tooDeep', values: { limit: MAX_DEPTH } });
    expect(failure('- '.repeat(500) + '1')).toMatchObject({ key: 'server.expressions.tooDeep' });
    expect(failure('lower('.repeat(100) + 'x' + ')'.repeat(100))).toMatchObject({ key: 'server.expressions.tooDeep' });
    // Nesting up to the limit is fine; one more level is not.
    const nested = (levels: number) => '('.repeat(levels) + 'x' + ')'.repeat(levels);
    expect(checkExpression(nested(MAX_DEPTH - 1))).toBeNull();
    expect(failure(nested(MAX_DEPTH))).toEqual({ key: 'server.expressions.tooDeep', values: { limit: MAX_DEPTH, position: MAX_DEPTH + 1 } });
  });

  it('counts tokens, not characters: a long chain within the limit parses', () => {
    const chain = (terms: number) => Array.from({ length: terms }, (_, i) => `c${i}`).join(' + ');
    expect(checkExpression(chain(MAX_TOKENS / 2))).toBeNull(); // 999 tokens
    expect(failure(chain(MAX_TOKENS / 2 + 1))).toEqual({ key: 'server.expressions.tooLong', values: { limit: MAX_TOKENS } });
  });

  it('throws only ExpressionErrors', () => {
    expect(() => parseExpression('x = = 1')).toThrow(ExpressionError);
  });
});

describe('columnsRead and variablesRead', () => {
  it('list the columns an expression reads, once each (case-insensitively, as DuckDB matches them), in order', () => {
    const expr = parseExpression('Price * qty + "price" - {{field.Unit price}} > {{var.limit}} AND lower(country) IN (\'nl\', home) AND {{var.limit}} > 0');
    expect(columnsRead(expr)).toEqual(['Price', 'qty', 'Unit price', 'country', 'home']);
    expect(variablesRead(expr)).toEqual(['limit']);
  });

  it('see inside CASE, CAST, BETWEEN and calls; functions and literals are not columns', () => {
    const expr = parseExpression("CASE a WHEN b THEN CAST(c AS int) ELSE d END BETWEEN e AND coalesce(f, 'g') AND current_date > h");
    expect(columnsRead(expr)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'h']);
    expect(columnsRead(parseExpression("1 + 2 = 'x'"))).toEqual([]);
  });

  it('walk a long chain without recursion', () => {
    const expr = parseExpression(Array.from({ length: 400 }, (_, i) => `c${i}`).join(' + '));
    expect(columnsRead(expr)).toHaveLength(400);
  });
});

describe('random token soup', () => {
  // A fixed seed, so a failure reproduces: every input either parses (and then compiles to SQL
  // without comments or a second statement) or fails with an ExpressionError, never anything else.
  const words = [
    '(',
    ')',
    ',',
    '=',
    '==',
    '!=',
    '<>',
    '<',
    '<=',
    '>',
    '>=',
    '+',
    '-',
    '*',
    '/',
    '%',
    '||',
    '::',
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
    'TRY_CAST',
    'AS',
    'int',
    'decimal',
    '10',
    'lower',
    'coalesce',
    'substr',
    'current_date',
    'x',
    '"y z"',
    "'q''s'",
    '1',
    '2.5e3',
    '{{var.v}}',
    '{{field.f}}',
    ';',
    '--',
    'SELECT',
    '"',
    "'",
  ];
  it('parses or refuses, nothing else', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let accepted = 0;
    for (let n = 0; n < 3000; n++) {
      const length = 1 + Math.floor(random() * 12);
      const text = Array.from({ length }, () => words[Math.floor(random() * words.length)]).join(' ');
      let expr: Expr;
      try {
        expr = parseExpression(text);
      } catch (err) {
        expect([text, err instanceof ExpressionError]).toEqual([text, true]);
        continue;
      }
      accepted++;
      const { sql } = compileExpression(expr, { variables: { v: 1 } });
      expect([text, sql]).not.toEqual([text, expect.stringMatching(/--|;|\/\*/)]);
      columnsRead(expr);
    }
    expect(accepted).toBeGreaterThan(50);
  });
});
