import type { FastifyReply } from 'fastify';

/**
 * Server-sent events (text/event-stream), for the run events and the conversation turns alike.
 * The first chunk is awaited before any byte is written, so what fails first (not found, another
 * user's run, no model) is an ordinary JSON error answer; after that the reply is hijacked and
 * every chunk is written as it comes.
 */
export async function sendEventStream(
  reply: FastifyReply,
  chunks: AsyncGenerator<string>,
  options: {
    /** A comment line this often keeps proxies from closing a quiet stream. */
    keepAliveMs?: number;
    /** Logs a failure after the headers went out; answers a last chunk to send, if any. */
    onError: (err: unknown) => string | undefined;
  },
): Promise<void> {
  const first = await chunks.next();
  reply.raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  reply.hijack();
  // A client gone mid-stream is not an error: the source decides whether to keep going.
  const write = (chunk: string) => {
    if (!reply.raw.destroyed && !reply.raw.writableEnded) reply.raw.write(chunk);
  };
  const keepAlive = options.keepAliveMs ? setInterval(() => write(': keep-alive\n\n'), options.keepAliveMs) : undefined;
  try {
    if (!first.done) write(first.value);
    for await (const chunk of chunks) write(chunk);
  } catch (err) {
    const last = options.onError(err);
    if (last !== undefined) write(last);
  } finally {
    clearInterval(keepAlive);
    if (!reply.raw.writableEnded) reply.raw.end();
  }
}

/** One event: its name and its data as JSON. */
export const eventChunk = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** An AbortSignal that fires when the client goes away before the answer ended (a stop, a dropped stream). */
export function closedSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  return controller.signal;
}
