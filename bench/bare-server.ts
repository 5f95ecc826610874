import Fastify from 'fastify';

/**
 * The baseline of `npm run bench`: Fastify with one route answering a small JSON body, no plugins,
 * no logging, in a process of its own like the real server. Every figure of the bench is also given
 * as a share of what this route does in the same run on the same machine.
 */
async function main() {
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ hello: 'world' }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ url })}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
