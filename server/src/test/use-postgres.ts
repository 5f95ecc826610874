// Setup file of the `server-postgres` Jest project: the same server suite, on PostgreSQL + Redis.
if (!process.env.TEST_DATABASE_URL) throw new Error('server-postgres needs TEST_DATABASE_URL');
process.env.STEPWISE_TEST_DB = 'postgres';
