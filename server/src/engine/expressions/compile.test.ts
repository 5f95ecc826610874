import { compileExpression, parseExpression, type Expr } from '.';
import { ExpressionError } from './errors';

const compile = (text: string, variables: Record<string, unknown> = {}, firstParam?: number) =>
  compileExpression(parseExpression(text), { variables, firstParam });

describe('compileExpression', () => {
  it.each<[string, string, unknown[]]>([
    ["country = 'NL'", '("country" = $1)', ['NL']],
    ['age >= 18 AND NOT banned', '(("age" >= 18) AND (NOT "banned"))', []],
    ['a == 1 OR b != 2', '(("a" = 1) OR ("b" <> 2))', []],
    ['- -1 + +x * 2.5e-3', '((-(-1)) + ((+"x") * 2.5e-3))', []],
    ["first || ' ' || last", '(("first" || $1) || "last")', [' ']],
    ['x IS NOT NULL AND y IS TRUE', '(("x" IS NOT NULL) AND ("y" IS TRUE))', []],
    ["country NOT IN ('NL', 'BE')", '("country" NOT IN ($1, $2))', ['NL', 'BE']],
    ["name ILIKE 'a%'", '("name" ILIKE $1)', ['a%']],
    ['price NOT BETWEEN 1 AND 10', '("price" NOT BETWEEN 1 AND 10)', []],
    ["CASE WHEN x > 1 THEN 'big' ELSE 'small' END", '(CASE WHEN ("x" > 1) THEN $1 ELSE $2 END)', ['big', 'small']],
    ["CASE status WHEN 'paid' THEN 1 END", '(CASE "status" WHEN $1 THEN 1 END)', ['paid']],
    [
      'CAST(price AS numeric(10, 2)) + TRY_CAST(qty AS int) + x::text::date',
      '((CAST("price" AS DECIMAL(10, 2)) + TRY_CAST("qty" AS INTEGER)) + CAST(CAST("x" AS VARCHAR) AS DATE))',
      [],
    ],
    ["LOWER(Name) LIKE 'a%'", '(lower("Name") LIKE $1)', ['a%']],
    ['current_date > now() AND current_timestamp() IS NOT NULL', '((current_date > now()) AND (current_timestamp IS NOT NULL))', []],
    ['"Unit price" * "a""b"', '("Unit price" * "a""b")', []],
    ['{{field.Unit price}} > 0', '("Unit price" > 0)', []],
  ])('%s', (text, sql, params) => {
    expect(compile(text)).toEqual({ sql, params });
  });

  it('binds {{var.NAME}} as a parameter, once per variable, numbered from firstParam', () => {
    expect(
      compile(
        "amount > {{var.threshold}} AND amount < {{var.threshold}} * 2 AND tag = 'x' AND note = {{var.note}}",
        { threshold: 10, note: "'; DROP TABLE t; --" },
        3,
      ),
    ).toEqual({
      sql: '(((("amount" > $3) AND ("amount" < ($3 * 2))) AND ("tag" = $4)) AND ("note" = $5))',
      params: [10, 'x', "'; DROP TABLE t; --"],
    });
  });

  it('refuses a variable the workflow does not have, pointing at it', () => {
    expect(() => compile('x > {{var.missing}}', { other: 1 })).toThrow(
      expect.objectContaining({ key: 'server.expressions.unknownVariable', values: { name: 'missing', position: 5 } }),
    );
    expect(() => compileExpression(parseExpression('{{var.toString}}'))).toThrow(ExpressionError);
  });

  it('never puts a value into the SQL text: strings are parameters, names are quoted', () => {
    const hostile = [
      "name = 'x''); DROP TABLE t; --'",
      "name = 'a\\' OR x = 'b'",
      "name = '$1' OR name = '\"a\"'",
      '"a"" OR 1=1 --" = 1',
      '{{field.x" = 1 OR "y}} > 0',
      "lower('SELECT * FROM read_csv(''/etc/passwd'')') = name",
    ];
    for (const text of hostile) {
      const { sql } = compile(text);
      // Outside double-quoted names, only our own words, operators, numbers and $n remain.
      const outsideNames = sql.replace(/"(?:[^"]|"")*"/g, '"…"');
      expect([text, outsideNames]).toEqual([text, expect.stringMatching(/^[\sA-Za-z_()$0-9.,<>=!|*/%+"…-]*$/)]);
      expect([text, outsideNames]).not.toEqual([text, expect.stringMatching(/--|;|\/\*|DROP|SELECT|read_csv/)]);
    }
    expect(compile('"a"" OR 1=1 --" = 1').sql).toBe('("a"" OR 1=1 --" = 1)');
    expect(compile("name = 'x''); DROP TABLE t; --'").params).toEqual(["x'); DROP TABLE t; --"]);
    // A backslash escapes nothing in SQL strings: it is a character like any other.
    expect(compile("name = 'a\\' OR x = 'b'").params).toEqual(['a\\', 'b']);
  });

  it('checks a tree built elsewhere before writing it out', () => {
    const at = 1;
    const trees: Expr[] = [
      { type: 'number', text: '1; DROP TABLE t', at },
      { type: 'call', name: 'read_csv', args: [{ type: 'string', value: '/etc/passwd', at }], at },
      { type: 'cast', operand: { type: 'number', text: '1', at }, to: { name: 'INTEGER); DROP TABLE t; --' }, try: false, at },
      { type: 'cast', operand: { type: 'number', text: '1', at }, to: { name: 'DECIMAL', precision: 99, scale: 0 }, try: false, at },
    ];
    for (const tree of trees) expect(() => compileExpression(tree)).toThrow();
  });
});
