import path from 'node:path';
import { sql } from 'kysely';
import ts from 'typescript';
import { createTestApp, onPostgres, type TestApp } from '../test/test-app';

// schema.ts is written by hand beside the migrations, and Kysely trusts it blindly: a column a
// migration adds but schema.ts lacks cannot be written through Kysely, and one typed `string` that
// the database allows to be NULL reaches code that never expects null. So this test migrates a fresh
// database (SQLite here, PostgreSQL in the server-postgres project) and compares what is really there
// with what schema.ts declares: the tables of `Database`, each table's columns, and `| null` against
// the column's nullability. It reads both sides generically, so new tables and columns are compared
// as they arrive.

const SCHEMA_FILE = path.join(__dirname, 'schema.ts');

type Columns = Map<string, { nullable: boolean }>;

/** Tables and columns as schema.ts declares them, read with the TypeScript compiler. */
function declaredTables(): Map<string, Columns> {
  const program = ts.createProgram([SCHEMA_FILE], { strict: true, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(SCHEMA_FILE)!;
  const database = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Database');
  if (!database) throw new Error('schema.ts has no `interface Database`');

  const tables = new Map<string, Columns>();
  for (const table of checker.getPropertiesOfType(checker.getTypeAtLocation(database))) {
    const columns: Columns = new Map();
    for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbolAtLocation(table, database))) {
      columns.set(column.name, { nullable: canBeNull(selectType(checker, checker.getTypeOfSymbolAtLocation(column, database), database)) });
    }
    tables.set(table.name, columns);
  }
  return tables;
}

/** Kysely's ColumnType<Select, Insert, Update> and Generated<T> hold what a read answers in `__select__`. */
function selectType(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): ts.Type {
  const select = type.getProperty('__select__');
  return select ? checker.getTypeOfSymbolAtLocation(select, at) : type;
}

function canBeNull(type: ts.Type): boolean {
  return (type.isUnion() ? type.types : [type]).some((t) => (t.flags & ts.TypeFlags.Null) !== 0);
}

/** Tables and columns of the migrated database, as Kysely's introspection sees them. */
async function migratedTables(t: TestApp): Promise<Map<string, Columns>> {
  // On PostgreSQL the introspection lists every schema; the migrations create theirs in public.
  const tables = (await t.app.db.introspection.getTables()).filter((table) => !onPostgres() || table.schema === 'public');
  const result = new Map<string, Columns>();
  for (const table of tables) {
    // SQLite lets a primary key other than INTEGER PRIMARY KEY hold NULL unless it also says NOT
    // NULL (a quirk its documentation keeps for compatibility). No code writes a NULL id, and
    // PostgreSQL, which runs the same migrations, refuses one, so a key column counts as not null.
    const keys = onPostgres()
      ? new Set<string>()
      : new Set((await sql<{ name: string }>`select name from pragma_table_info(${table.name}) where pk > 0`.execute(t.app.db)).rows.map((r) => r.name));
    result.set(table.name, new Map(table.columns.map((c) => [c.name, { nullable: c.isNullable && !keys.has(c.name) }])));
  }
  return result;
}

/** Every difference, in words, so a failure says what to change in schema.ts (or the migration). */
function differences(declared: Map<string, Columns>, migrated: Map<string, Columns>): string[] {
  const out: string[] = [];
  for (const name of migrated.keys()) if (!declared.has(name)) out.push(`table ${name}: migrated, but not in schema.ts's Database`);
  for (const [name, columns] of declared) {
    const actual = migrated.get(name);
    if (!actual) {
      out.push(`table ${name}: in schema.ts's Database, but no migration creates it`);
      continue;
    }
    for (const [column, { nullable }] of actual) {
      const typed = columns.get(column);
      if (!typed) out.push(`${name}.${column}: migrated, but not in schema.ts`);
      else if (typed.nullable !== nullable)
        out.push(
          `${name}.${column}: ${nullable ? 'nullable in the database, but schema.ts lacks `| null`' : 'NOT NULL in the database, but schema.ts says `| null`'}`,
        );
    }
    for (const column of columns.keys()) if (!actual.has(column)) out.push(`${name}.${column}: in schema.ts, but no migration adds it`);
  }
  return out;
}

describe('db/schema.ts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  // Over Jest’s 5 s at worst: builds a TypeScript program to read schema.ts’s types (2.4 s on a loaded 2-core machine).
  it('declares exactly the tables, columns and nullability the migrations create', async () => {
    const declared = declaredTables();
    const migrated = await migratedTables(t);
    // Both sides really were read: a broken reader must not pass by comparing nothing with nothing.
    expect(migrated.size).toBeGreaterThan(5);
    expect(declared.get('files')?.get('folder_id')).toEqual({ nullable: true });
    expect(declared.get('files')?.get('name')).toEqual({ nullable: false });

    expect(differences(declared, migrated)).toEqual([]);
  }, 20_000);
});
