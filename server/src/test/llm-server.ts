import http from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenAI-compatible model server (what OpenAI, Ollama, vLLM, llama.cpp's server
 * and LiteLLM all speak): a real HTTP server on loopback serving `POST /v1/chat/completions`
 * (streamed as server-sent events or whole), `POST /v1/embeddings` and `GET /v1/models`, so the
 * product's real client (the AI SDK) is tested over the real protocol. Tests script its answers
 * (text, tool calls, malformed JSON, rate limits, errors, a stream that hangs) and read what it
 * received, including whether the client went away mid-answer.
 */

export interface ChatRequestSeen {
  model: string;
  stream: boolean;
  messages: { role: string; content: unknown; tool_calls?: unknown; tool_call_id?: string }[];
  tools: { name: string; description?: string; parameters?: unknown }[];
  /** `response_format` as sent (structured output asks for `json_schema`). */
  responseFormat: unknown;
  authorization: string | undefined;
  /** Set when the client closed the connection before the answer ended (a stop or an abort). */
  aborted: boolean;
  /** The whole body as parsed, for anything else a test wants to check. */
  body: Record<string, unknown>;
}

export type LlmReply =
  /** A text answer; streamed in chunks of `chunkSize` characters, `delayMs` apart (a whole answer comes after `delayMs`). */
  | {
      text: string;
      chunkSize?: number;
      delayMs?: number;
      usage?: { prompt_tokens: number; completion_tokens: number };
      /** Streams the chunks up to `at` characters, then the rest only once `until` resolves: a test sees the answer mid-stream. */
      pause?: { at: number; until: Promise<unknown> };
    }
  /** One or more tool calls (with optional text before them); `args` is sent as JSON text unless it is already a string. */
  | { toolCalls: { name: string; args: unknown; id?: string }[]; text?: string }
  /** An HTTP error answer, OpenAI-shaped (`{error: {message, type}}`), with Retry-After when given. */
  | { status: number; message?: string; retryAfterSeconds?: number }
  /** A 200 whose body is not valid JSON (whole) or whose stream carries a broken chunk. */
  | { malformed: true }
  /** Streams `text` (if any) and then never finishes, until the client goes away. */
  | { hang: true; text?: string };

export type ReplyFn = (request: ChatRequestSeen) => LlmReply;

export interface LlmServer {
  /** Base URL with `/v1`, as LLM_BASE_URL takes it. */
  url: string;
  /** Environment that points the app's chat model at this server. */
  env: Record<string, string>;
  /** Every chat request received, in order. */
  requests: ChatRequestSeen[];
  /** Every embeddings request's inputs, in order. */
  embeddings: string[][];
  /** Queues scripted replies; each chat request takes the next one, then the default applies. */
  queue(...replies: (LlmReply | ReplyFn)[]): void;
  /** Replaces the default reply (used when the queue is empty). */
  setDefault(reply: ReplyFn): void;
  /** Resolves once a request has been aborted by its client (or after `timeoutMs`, rejecting). */
  waitForAbort(timeoutMs?: number): Promise<ChatRequestSeen>;
  close(): Promise<void>;
}

export const STAND_IN_MODEL = 'stand-in-chat';

/** The default: repeats the last user message, so a test can see its prompt reached the model. */
export const echoReply: ReplyFn = (request) => {
  const last = [...request.messages].reverse().find((m) => m.role === 'user');
  return { text: `Echo: ${textOf(last?.content)}` };
};

export async function startLlmServer(options: { reply?: ReplyFn; apiKey?: string } = {}): Promise<LlmServer> {
  const requests: ChatRequestSeen[] = [];
  const embeddings: string[][] = [];
  const scripted: (LlmReply | ReplyFn)[] = [];
  let fallback: ReplyFn = options.reply ?? echoReply;
  const abortWaiters: ((r: ChatRequestSeen) => void)[] = [];
  const sockets = new Set<import('node:net').Socket>();
  let sequence = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        send(400, { error: { message: 'invalid JSON body', type: 'invalid_request_error' } });
        return;
      }
      const url = (req.url ?? '').replace(/\?.*$/, '');
      if (req.method === 'GET' && url === '/v1/models') {
        send(200, { object: 'list', data: [{ id: STAND_IN_MODEL, object: 'model', owned_by: 'stepwise' }] });
        return;
      }
      if (req.method === 'POST' && url === '/v1/embeddings') {
        const inputs = [body.input as string | string[]].flat().map(String);
        embeddings.push(inputs);
        send(200, {
          object: 'list',
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })),
          model: body.model,
          usage: { prompt_tokens: tokensOf(inputs.join(' ')), total_tokens: tokensOf(inputs.join(' ')) },
        });
        return;
      }
      if (req.method !== 'POST' || url !== '/v1/chat/completions') {
        send(404, { error: { message: `no route ${req.method} ${url}`, type: 'invalid_request_error' } });
        return;
      }
      const seen: ChatRequestSeen = {
        model: String(body.model),
        stream: body.stream === true,
        messages: (body.messages as ChatRequestSeen['messages']) ?? [],
        tools: ((body.tools as { function: ChatRequestSeen['tools'][number] }[] | undefined) ?? []).map((t) => t.function),
        responseFormat: body.response_format,
        authorization: req.headers.authorization,
        aborted: false,
        body,
      };
      requests.push(seen);
      const next = scripted.shift() ?? fallback;
      const reply = typeof next === 'function' ? next(seen) : next;
      const id = `chatcmpl-${++sequence}`;
      res.on('close', () => {
        if (res.writableFinished) return;
        seen.aborted = true;
        abortWaiters.splice(0).forEach((resolve) => resolve(seen));
      });
      answer(seen, reply, id, res, send);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    env: { LLM_BASE_URL: url, LLM_MODEL: STAND_IN_MODEL, ...(options.apiKey ? { LLM_API_KEY: options.apiKey } : {}) },
    requests,
    embeddings,
    queue: (...replies) => void scripted.push(...replies),
    setDefault: (reply) => void (fallback = reply),
    waitForAbort: (timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const already = requests.find((r) => r.aborted);
        if (already) return resolve(already);
        const timer = setTimeout(() => reject(new Error('no request was aborted')), timeoutMs);
        abortWaiters.push((r) => {
          clearTimeout(timer);
          resolve(r);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

function answer(
  seen: ChatRequestSeen,
  reply: LlmReply,
  id: string,
  res: http.ServerResponse,
  send: (status: number, body: unknown, headers?: Record<string, string>) => void,
) {
  const created = Math.floor(Date.now() / 1000);
  const promptTokens = tokensOf(JSON.stringify(seen.messages));
  if ('status' in reply) {
    const headers: Record<string, string> = reply.retryAfterSeconds !== undefined ? { 'retry-after': String(reply.retryAfterSeconds) } : {};
    const type = reply.status === 429 ? 'rate_limit_exceeded' : reply.status >= 500 ? 'server_error' : 'invalid_request_error';
    send(reply.status, { error: { message: reply.message ?? `stand-in answered ${reply.status}`, type } }, headers);
    return;
  }
  if (!seen.stream && 'delayMs' in reply && reply.delayMs) {
    const { delayMs: _delay, ...rest } = reply;
    setTimeout(() => {
      if (!res.destroyed) answer(seen, rest, id, res, send);
    }, reply.delayMs);
    return;
  }
  if (!seen.stream) {
    if ('malformed' in reply) return send(200, '{"id": "broken", "choices": [');
    if ('hang' in reply) return; // never answers; the client's abort closes the socket
    const toolCalls =
      'toolCalls' in reply
        ? reply.toolCalls.map((c, i) => ({ id: c.id ?? `call_${i + 1}`, type: 'function', function: { name: c.name, arguments: argsText(c.args) } }))
        : undefined;
    const content = reply.text ?? null;
    const completion = 'usage' in reply && reply.usage ? reply.usage.completion_tokens : tokensOf(content ?? JSON.stringify(toolCalls ?? ''));
    const prompt = 'usage' in reply && reply.usage ? reply.usage.prompt_tokens : promptTokens;
    send(200, {
      id,
      object: 'chat.completion',
      created,
      model: seen.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
          finish_reason: toolCalls ? 'tool_calls' : 'stop',
        },
      ],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: seen.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const write = (text: string) => {
    if (!res.destroyed) res.write(text);
  };
  void (async () => {
    write(chunk({ role: 'assistant', content: '' }));
    if ('malformed' in reply) {
      write('data: {"id": "broken", "choices": [\n\n');
      res.end();
      return;
    }
    const text = reply.text ?? '';
    const size = 'chunkSize' in reply && reply.chunkSize ? reply.chunkSize : 8;
    const delay = 'delayMs' in reply && reply.delayMs ? reply.delayMs : 0;
    const pause = 'pause' in reply ? reply.pause : undefined;
    for (let at = 0; at < text.length; at += size) {
      if (pause && at >= pause.at && at - size < pause.at) await pause.until;
      if (res.destroyed) return;
      write(chunk({ content: text.slice(at, at + size) }));
      if (delay) await new Promise((r) => setTimeout(r, delay));
    }
    if ('hang' in reply) return; // keeps the response open until the client goes away
    let finish = 'stop';
    if ('toolCalls' in reply) {
      finish = 'tool_calls';
      reply.toolCalls.forEach((c, index) => {
        const args = argsText(c.args);
        const half = Math.floor(args.length / 2);
        // Arguments arrive in pieces, as real servers send them.
        write(
          chunk({ tool_calls: [{ index, id: c.id ?? `call_${index + 1}`, type: 'function', function: { name: c.name, arguments: args.slice(0, half) } }] }),
        );
        write(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
      });
    }
    write(chunk({}, finish));
    const completion =
      'usage' in reply && reply.usage ? reply.usage.completion_tokens : tokensOf(text || JSON.stringify('toolCalls' in reply ? reply.toolCalls : ''));
    const prompt = 'usage' in reply && reply.usage ? reply.usage.prompt_tokens : promptTokens;
    write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: seen.model, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`,
    );
    write('data: [DONE]\n\n');
    res.end();
  })();
}

const argsText = (args: unknown) => (typeof args === 'string' ? args : JSON.stringify(args));

/** About four characters a token, as a rough count real servers would report. */
export const tokensOf = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** Text of a message's content (a string, or OpenAI's list of parts). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'object' && p && 'text' in p ? String((p as { text: unknown }).text) : '')).join('');
  return '';
}

/** A deterministic unit vector of 8 dimensions from the text's hash: same text, same vector. */
function vectorOf(text: string): number[] {
  const hash = createHash('sha256').update(text).digest();
  const raw = Array.from({ length: 8 }, (_, i) => hash[i] / 255 - 0.5);
  const norm = Math.hypot(...raw) || 1;
  return raw.map((v) => v / norm);
}
