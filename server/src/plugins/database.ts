import fp from 'fastify-plugin';
import path from 'node:path';
import { openDatabase, type Db, type Dialect } from '../db/database';
import { migrateToLatest } from '../db/migrate';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dialect: Dialect;
  }
}

export interface DatabasePluginOptions {
  /** PostgreSQL schema to use instead of public (the benchmarks use one of their own). */
  pgSchema?: string;
}

/** Opens SQLite (default) or PostgreSQL, applies pending migrations, closes with the app. */
export default fp<DatabasePluginOptions>(
  async (app, options) => {
    const { databaseUrl, dataDir } = app.config;
    const handle = openDatabase({ databaseUrl, sqliteFile: path.join(dataDir, 'stepwise.db'), pgSchema: options.pgSchema });
    await migrateToLatest(handle.db, handle.dialect);
    app.decorate('db', handle.db);
    app.decorate('dialect', handle.dialect);
    app.addHook('onClose', async () => handle.close());
  },
  { name: 'database' },
);
