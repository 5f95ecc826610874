// Setup file of the `server` Jest project: the embedded default as `npm start` runs it (SQLite,
// in-process jobs), without Redis even when TEST_REDIS_URL is set. The `server-postgres` project
// runs the suite on PostgreSQL + Redis.
delete process.env.TEST_REDIS_URL;
