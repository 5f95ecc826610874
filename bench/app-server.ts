import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config/config';

/**
 * The real server for `npm run bench`, in its own process (the load comes from another one).
 * Configured by the environment like `npm run serve`; BENCH_PG_SCHEMA puts it in a PostgreSQL
 * schema of its own so a bench run never touches other data.
 */
async function main() {
  const config = loadConfig(process.env);
  const app = await buildApp({ config, pgSchema: process.env.BENCH_PG_SCHEMA || undefined });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ url })}\n`);
  // A clean exit on SIGTERM, so `--cpu-prof` writes its profile.
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
