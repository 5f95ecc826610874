import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { csvSelectList, FORMULA_TRIGGERS, neutraliseCell, neutralisedSql, writtenAsText } from './csv-cells';
import { DuckDBPool } from './duckdb-pool';

describe('neutraliseCell', () => {
  it("puts ' before a text that starts with one of OWASP's six characters, and only then", () => {
    expect(FORMULA_TRIGGERS).toEqual(['=', '+', '-', '@', '\t', '\r']);
    const cases: [string, string][] = [
      ['=1+1', "'=1+1"],
      ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
      ['-2+3', "'-2+3"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\tx', "'\tx"],
      ['\rx', "'\rx"],
      ['plain text', 'plain text'],
      ['', ''],
      // Leading characters only, as OWASP lists them: a space, a newline or a later `=` is left alone.
      [' =1+1', ' =1+1'],
      ['\n=1+1', '\n=1+1'],
      ['a=1', 'a=1'],
      // Already neutralised: the quote is not a trigger, so it is not doubled.
      ["'=1+1", "'=1+1"],
    ];
    for (const [text, cell] of cases) expect([text, neutraliseCell(text)]).toEqual([text, cell]);
  });
});

describe('writtenAsText', () => {
  it('keeps numbers, booleans, dates, times, intervals and UUIDs typed; anything else is text', () => {
    for (const type of ['BIGINT', 'DOUBLE', 'DECIMAL(18,3)', 'BOOLEAN', 'DATE', 'TIMESTAMP WITH TIME ZONE', 'TIME', 'INTERVAL', 'UUID', 'hugeint']) {
      expect([type, writtenAsText(type)]).toEqual([type, false]);
    }
    for (const type of ['VARCHAR', 'JSON', 'BLOB', 'VARCHAR[]', 'STRUCT(a VARCHAR)', "ENUM('a', 'b')", 'UNION(k VARCHAR, i INTEGER)', 'SOMETHING_NEW']) {
      expect([type, writtenAsText(type)]).toEqual([type, true]);
    }
  });
});

describe('csvSelectList on DuckDB', () => {
  let dir: string;
  let pool: DuckDBPool;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-csv-cells-'));
    pool = new DuckDBPool({ memoryLimit: '256MB', threads: 1, tempDirectory: path.join(dir, 'spill'), allowedDirectories: [dir], maxConnections: 1 });
  });
  afterAll(async () => {
    await pool.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const texts = ['=1+1', "+cmd|' /C calc'!A0", '-2+3', '@SUM(A1)', '\tx', '\rx', 'plain', '', null, ' =1'];
  const table = `SELECT * FROM (VALUES ${texts
    .map((t, i) => {
      const text = t === null ? 'NULL' : `'${t.replaceAll("'", "''")}'`;
      return `(${i}, ${text}, ${-i - 0.5}::DOUBLE, ${-i}::BIGINT, ${text}::BLOB, INTERVAL '-1 day')`;
    })
    .join(', ')}) AS t(n, "=text", amount, delta, bytes, span) ORDER BY n`;
  const columns = [
    { name: '=text', type: 'VARCHAR' },
    { name: 'amount', type: 'DOUBLE' },
    { name: 'delta', type: 'BIGINT' },
    { name: 'bytes', type: 'BLOB' },
    { name: 'span', type: 'INTERVAL' },
  ];
  const write = async (raw: boolean) => {
    const target = path.join(dir, `out-${raw}.csv`);
    await pool.use((c) => c.run(`COPY (SELECT ${csvSelectList(columns, { raw })} FROM (${table})) TO '${target}' (FORMAT csv, HEADER true)`));
    return fs.readFileSync(target, 'utf8');
  };

  it('neutralises the text cells and header names as neutraliseCell does, and leaves numbers and intervals as they are', async () => {
    const lines = (await write(false)).split('\n');
    expect(lines[0]).toBe("'=text,amount,delta,bytes,span");
    // A negative number or interval keeps its sign; NULL stays empty, '' stays "". A BLOB is
    // neutralised on its text, where a tab, a CR and a quote are written as \x09, \x0D and \x27.
    expect(lines.slice(1)).toEqual([
      "'=1+1,-0.5,0,'=1+1,-1 day",
      "'+cmd|' /C calc'!A0,-1.5,-1,'+cmd|\\x27 /C calc\\x27!A0,-1 day",
      "'-2+3,-2.5,-2,'-2+3,-1 day",
      "'@SUM(A1),-3.5,-3,'@SUM(A1),-1 day",
      "'\tx,-4.5,-4,\\x09x,-1 day",
      // A carriage return is a line break to CSV: the cell is quoted.
      `"'\rx",-5.5,-5,\\x0Dx,-1 day`,
      'plain,-6.5,-6,plain,-1 day',
      '"",-7.5,-7,"",-1 day',
      ',-8.5,-8,,-1 day',
      ' =1,-9.5,-9, =1,-1 day',
      '',
    ]);
  });

  it('writes every name and value as stored when raw', async () => {
    const lines = (await write(true)).split('\n');
    expect(lines[0]).toBe('=text,amount,delta,bytes,span');
    expect(lines[1]).toBe('=1+1,-0.5,0,=1+1,-1 day');
    expect(lines[3]).toBe('-2+3,-2.5,-2,-2+3,-1 day');
    expect(lines[6]).toBe('"\rx",-5.5,-5,\\x0Dx,-1 day');
  });

  it('keeps two header names apart that neutralising makes equal', async () => {
    const target = path.join(dir, 'names.csv');
    const select = csvSelectList(
      [
        { name: '=a', type: 'VARCHAR' },
        { name: "'=a", type: 'VARCHAR' },
      ],
      { raw: false },
    );
    await pool.use((c) => c.run(`COPY (SELECT ${select} FROM (SELECT 'x' AS "=a", 'y' AS "'=a")) TO '${target}' (FORMAT csv, HEADER true)`));
    expect(fs.readFileSync(target, 'utf8')).toBe("'=a,'=a_1\nx,y\n");
  });

  it('the SQL and the TypeScript rule agree on every character a text can start with', async () => {
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).filter((c) => c !== '\0');
    const starts = [...ascii, 'é', '李', '＝'];
    const values = starts.map((c) => `'${`${c}x`.replaceAll("'", "''")}'`).join(', ');
    const rows = await pool.use(async (c) => (await c.runAndReadAll(`SELECT ${neutralisedSql('v')} FROM unnest([${values}]) AS t(v)`)).getRows());
    expect(rows.map((r) => r[0])).toEqual(starts.map((c) => neutraliseCell(`${c}x`)));
  });
});
