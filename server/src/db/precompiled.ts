import { randomBytes } from 'node:crypto';
import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/**
 * The SQL texts of precompiled queries, by the name PostgreSQL prepares them under (see
 * `openDatabase`): each is parsed and planned once per connection instead of once per query.
 * Only these: a statement prepared before a migration changed its table's columns could fail.
 */
export const preparedStatementNames = new Map<string, string>();

/**
 * A Kysely query built and compiled once, then run with new values each time: for the queries of
 * (nearly) every request, such as the token check, where building the query tree and compiling it
 * cost more than the database takes to answer. Works on both dialects; on SQLite the statement
 * cache then finds the prepared statement by its unchanged SQL text.
 *
 * `build` receives a placeholder per value name, to put where that value goes; the placeholders
 * are found among the compiled parameters (each may appear several times), and every call puts its
 * values in their places. A name that the query does not use is a mistake and throws.
 */
export function precompile<Row, Name extends string, DB>(
  db: Kysely<DB>,
  names: readonly Name[],
  build: (db: Kysely<DB>, values: Record<Name, string>) => Compilable<Row>,
): (values: Record<Name, unknown>) => Promise<Row[]> {
  let compiled: { query: CompiledQuery<Row>; slots: (Name | undefined)[] } | undefined;
  const compile = () => {
    const tag = randomBytes(6).toString('hex');
    const placeholders = Object.fromEntries(names.map((name) => [name, `\u0000${tag}:${name}\u0000`])) as Record<Name, string>;
    const byPlaceholder = new Map(names.map((name) => [placeholders[name], name]));
    const query = build(db, placeholders).compile();
    if (!preparedStatementNames.has(query.sql)) preparedStatementNames.set(query.sql, `stepwise_${preparedStatementNames.size + 1}`);
    const slots = query.parameters.map((p) => (typeof p === 'string' ? byPlaceholder.get(p) : undefined));
    const missing = names.filter((name) => !slots.includes(name));
    if (missing.length) throw new Error(`precompiled query does not use ${missing.join(', ')}`);
    return { query, slots };
  };
  return async (values) => {
    compiled ??= compile();
    const { query, slots } = compiled;
    const parameters = query.parameters.map((p, i) => (slots[i] === undefined ? p : values[slots[i]]));
    const { rows } = await db.executeQuery<Row>({ ...query, parameters });
    return rows;
  };
}
