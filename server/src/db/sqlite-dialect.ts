import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';

/**
 * better-sqlite3 statements by their SQL text. Kysely's own SQLite driver prepares every statement
 * again on every query, which a profile showed costing more than running the indexed lookups of a
 * request. Kysely puts values in parameters, so the SQL texts of an app are few; the least recently
 * used one goes when there are more than `max` (e.g. `in (?, ?, …)` lists of many lengths).
 */
export class StatementCache {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly max = 500,
  ) {}

  get(sql: string): BetterSqlite3.Statement {
    const cached = this.statements.get(sql);
    if (cached) {
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.db.prepare(sql);
    // Rows as arrays: see RoutingDriver.rowsOf.
    if (statement.reader) statement.raw(true);
    this.statements.set(sql, statement);
    if (this.statements.size > this.max) this.statements.delete(this.statements.keys().next().value!);
    return statement;
  }

  get size(): number {
    return this.statements.size;
  }
}

export function closeAll({ reader, writer }: SqliteConnections): void {
  if (reader.open) reader.close();
  if (writer.open) writer.close();
}

/** Statements that change the schema, after which a statement's columns may be others. */
const schemaChange = /^\s*(create|alter|drop)\b/i;
/** First come, first served: edits of one workflow queue in the order they arrived. */
class Mutex {
  private locked = false;
  private readonly waiting: (() => void)[] = [];

  async lock(): Promise<void> {
    if (!this.locked) {
      this.locked = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  unlock(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.locked = false;
  }
}

export interface SqliteConnections {
  /** Every write and every transaction; one at a time. */
  writer: BetterSqlite3.Database;
  /** Opened read-only on the same file: SELECTs outside a transaction. */
  reader: BetterSqlite3.Database;
}

/**
 * SQLite with two connections to one WAL database. Kysely's own driver has one connection behind a
 * mutex, so while any transaction is open (an edit awaits several queries) every other request
 * waits, reads included: ten clients editing one workflow cut `/users/me` to a fifth of its rate.
 * Here a SELECT outside a transaction runs at once on the read connection and sees the last
 * committed state (WAL readers never wait for the writer, and better-sqlite3 runs each statement to
 * the end synchronously, so no read holds a snapshot open). Other statements outside a transaction
 * take the writer for that one statement; a transaction takes it from BEGIN to COMMIT, and
 * everything in it, SELECTs too, runs on the writer and sees its own writes.
 */
export class SqliteRoutingDialect implements Dialect {
  constructor(private readonly connections: SqliteConnections) {}

  createAdapter() {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new RoutingDriver(this.connections);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's Dialect interface takes Kysely<any>
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}

class RoutingDriver implements Driver {
  readonly writerMutex = new Mutex();
  readonly writer: StatementCache;
  readonly reader: StatementCache;

  constructor(readonly connections: SqliteConnections) {
    this.writer = new StatementCache(connections.writer);
    this.reader = new StatementCache(connections.reader);
  }

  async init(): Promise<void> {}

  /** Column names of the reading statements, by statement; forgotten when the schema changes. */
  private columnNames = new WeakMap<BetterSqlite3.Statement, string[]>();

  execute(cache: StatementCache, sql: string, parameters: readonly unknown[]): QueryResult<unknown> {
    const statement = cache.get(sql);
    if (statement.reader) return { rows: this.rowsOf(statement, parameters) };
    const { changes, lastInsertRowid } = statement.run(parameters);
    if (schemaChange.test(sql)) this.columnNames = new WeakMap();
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  /**
   * better-sqlite3 builds row objects in native code one property at a time, which costs more than
   * the query for a page of rows (50 workflows: 160 µs of objects against 95 µs as arrays turned
   * into objects here). The names are read after the statement ran, since SQLite re-prepares a
   * statement whose tables changed only when it runs; a row of another width re-reads them too
   * (a schema changed by another process).
   */
  private rowsOf(statement: BetterSqlite3.Statement, parameters: readonly unknown[]): Record<string, unknown>[] {
    const values = statement.all(parameters) as unknown[][];
    if (values.length === 0) return [];
    let names = this.columnNames.get(statement);
    if (!names || names.length !== values[0].length) {
      names = statement.columns().map((column) => column.name);
      this.columnNames.set(statement, names);
    }
    const rows = new Array<Record<string, unknown>>(values.length);
    for (let r = 0; r < values.length; r++) {
      const row: Record<string, unknown> = {};
      const value = values[r];
      for (let c = 0; c < names.length; c++) row[names[c]] = value[c];
      rows[r] = row;
    }
    return rows;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Lease).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).rollback();
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name.replace(/"/g, '""')}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name.replace(/"/g, '""')}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name.replace(/"/g, '""')}"`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).release();
  }

  async destroy(): Promise<void> {
    closeAll(this.connections);
  }
}

/**
 * What Kysely holds as "a connection": cheap to hand out, it picks the real connection per
 * statement, or holds the writer from BEGIN to COMMIT.
 */
class Lease implements DatabaseConnection {
  private holdsWriter = false;

  constructor(private readonly driver: RoutingDriver) {}

  async begin(): Promise<void> {
    await this.driver.writerMutex.lock();
    this.holdsWriter = true;
    try {
      // IMMEDIATE takes the write lock now: another process (the worker) writing between our
      // first read and first write would otherwise make the write fail with SQLITE_BUSY at once.
      this.driver.execute(this.driver.writer, 'begin immediate', []);
    } catch (error) {
      this.release();
      throw error;
    }
  }

  commit(): void {
    // A failed COMMIT leaves the transaction open: keep the writer for the ROLLBACK Kysely sends next.
    this.driver.execute(this.driver.writer, 'commit', []);
    this.release();
  }

  rollback(): void {
    try {
      this.driver.execute(this.driver.writer, 'rollback', []);
    } finally {
      this.release();
    }
  }

  release(): void {
    if (!this.holdsWriter) return;
    this.holdsWriter = false;
    this.driver.writerMutex.unlock();
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.holdsWriter) {
      // better-sqlite3 answers synchronously, so without this a whole edit (a dozen statements and
      // the work between them) runs as one block of microtasks, and ten queued edits answer before
      // any read that arrived meanwhile. Yielding to the event loop lets those reads in between:
      // with ten clients editing, /users/me at 500 req/s went from p50 19 ms to 2 ms, and the
      // edits keep their rate (they queue for the writer either way).
      await new Promise((resolve) => setImmediate(resolve));
      return this.driver.execute(this.driver.writer, compiled.sql, compiled.parameters) as QueryResult<R>;
    }
    if (SelectQueryNode.is(compiled.query)) return this.driver.execute(this.driver.reader, compiled.sql, compiled.parameters) as QueryResult<R>;
    await this.driver.writerMutex.lock();
    try {
      return this.driver.execute(this.driver.writer, compiled.sql, compiled.parameters) as QueryResult<R>;
    } finally {
      this.driver.writerMutex.unlock();
    }
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('SQLite streams SELECT queries only');
    // A statement of its own: a cached one would be busy while the caller iterates.
    const connection = this.holdsWriter ? this.driver.connections.writer : this.driver.connections.reader;
    for (const row of connection.prepare(compiled.sql).iterate(compiled.parameters)) yield { rows: [row as R] };
  }
}
