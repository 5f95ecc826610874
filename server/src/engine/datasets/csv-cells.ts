import { quoteIdent, sqlString } from './sql';

/**
 * CSV formula injection (OWASP, "CSV Injection": https://owasp.org/www-community/attacks/CSV_Injection).
 * A spreadsheet opening a CSV runs a cell that starts with a formula character (`=HYPERLINK(…)`,
 * `+cmd|' /C calc'!A0`), so a value typed by one person can act on the machine of another who opens
 * the export. Every CSV the product writes (the Export CSV step, a dataset's CSV download) goes
 * through here, so the rule lives in one place.
 *
 * The rule is OWASP's, exactly: a cell whose FIRST character is one of these six gets a single
 * quote `'` in front, which a spreadsheet takes as "this is text" and does not show. Nothing else is
 * looked at: not characters after leading spaces (" =1+1" is left as it is, as OWASP's list is of
 * leading characters only), not the rest of the cell. OWASP's other concern, a delimiter or quote
 * starting a new cell inside a value, is DuckDB's CSV writer's job: it quotes any value holding the
 * delimiter, a quote or a line break.
 */
export const FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r'] as const;

/** One text as a cell no spreadsheet runs: with `'` in front if it starts with a formula trigger. */
export function neutraliseCell(text: string): string {
  return (FORMULA_TRIGGERS as readonly string[]).includes(text.charAt(0)) ? `'${text}` : text;
}

// Tab and carriage return as chr(), so the statement (logged on failure) shows no invisible characters.
const triggerLiterals = FORMULA_TRIGGERS.map((c) => (c >= ' ' ? sqlString(c) : `chr(${c.charCodeAt(0)})`)).join(', ');

/** neutraliseCell as DuckDB SQL over a VARCHAR expression (NULL stays NULL, '' stays ''). */
export const neutralisedSql = (text: string) => `CASE WHEN left(${text}, 1) IN (${triggerLiterals}) THEN '''' || ${text} ELSE ${text} END`;

/**
 * Types DuckDB writes from a fixed grammar of digits, signs and words, which cannot carry a
 * formula: left as they are, so -5 stays the number -5 and a spreadsheet still reads it as one.
 * Every other type (VARCHAR, JSON, BLOB, ENUM, UNION, lists, structs, anything unknown) is written
 * as its text and neutralised: a new type is treated as text until it is listed here.
 */
const TYPED =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|VARINT|BIGNUM|FLOAT|DOUBLE|DECIMAL\(\d+,\s*\d+\)|BOOLEAN|DATE|TIME|TIME WITH TIME ZONE|TIMESTAMP|TIMESTAMP WITH TIME ZONE|TIMESTAMP_S|TIMESTAMP_MS|TIMESTAMP_NS|INTERVAL|UUID)$/;

export const writtenAsText = (type: string): boolean => !TYPED.test(type.trim().toUpperCase());

/**
 * The SELECT list of a CSV `COPY`: the columns in order, the header names and the text cells
 * neutralised (CAST to VARCHAR first where the column is not VARCHAR: DuckDB's CSV writer writes
 * that same text). `raw`: every name and value exactly as stored, for programs that read the file.
 * Two names equal once neutralised (`=a` beside `'=a`) are made distinct by DuckDB (`'=a_1`).
 */
export function csvSelectList(columns: readonly { name: string; type: string }[], options: { raw: boolean }): string {
  if (options.raw) return columns.map((c) => quoteIdent(c.name)).join(', ');
  return columns
    .map((c) => {
      const column = quoteIdent(c.name);
      const value = !writtenAsText(c.type) ? column : neutralisedSql(c.type.trim().toUpperCase() === 'VARCHAR' ? column : `CAST(${column} AS VARCHAR)`);
      return `${value} AS ${quoteIdent(neutraliseCell(c.name))}`;
    })
    .join(', ');
}
