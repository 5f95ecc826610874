import { embedMany, generateText, jsonSchema, Output, stepCountIs, streamText, tool } from 'ai';
import { startLlmServer, type LlmServer } from '../test/llm-server';
import { chatModelFor, describeModelFailure, embeddingModelFor, requireChatModel, NoModelConfigured, type ModelSettings } from '.';

let llm: LlmServer;
let settings: ModelSettings;

beforeAll(async () => {
  llm = await startLlmServer({ apiKey: 'sk-test' });
  settings = { baseUrl: llm.url, apiKey: 'sk-test', model: 'stand-in-chat', provider: 'openai-compatible' };
});
afterAll(() => llm.close());

const model = () => requireChatModel(settings).model;

describe('chat models over the OpenAI-compatible protocol', () => {
  it('is off without a model, and asking for one says how to connect it', () => {
    expect(chatModelFor({ ...settings, model: null })).toBeNull();
    const err = (() => {
      try {
        requireChatModel({ ...settings, model: null });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(NoModelConfigured);
    expect((err as NoModelConfigured).modal).toMatchObject({ level: 'warning', content: 'server.ai.noModelHelp' });
  });

  it('names the model by provider, model and host, and accepts a pasted endpoint URL', async () => {
    const chat = chatModelFor({ ...settings, baseUrl: `${llm.url}/chat/completions/` })!;
    expect(chat.id).toBe(`openai-compatible:stand-in-chat@${new URL(llm.url).host}`);
    const { text } = await generateText({ model: chat.model, prompt: 'hello there' });
    expect(text).toBe('Echo: hello there');
    expect(llm.requests.at(-1)!.authorization).toBe('Bearer sk-test');
  });

  it('streams text in pieces and reports the tokens used', async () => {
    llm.queue({ text: 'The quick brown fox jumps over the lazy dog.', chunkSize: 5 });
    const result = streamText({ model: model(), prompt: 'tell me' });
    const pieces: string[] = [];
    for await (const delta of result.textStream) pieces.push(delta);
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe('The quick brown fox jumps over the lazy dog.');
    const usage = await result.usage;
    expect(usage.outputTokens).toBeGreaterThan(0);
    expect(usage.inputTokens).toBeGreaterThan(0);
  });

  it('carries tool calls and their results through a multi-step turn', async () => {
    llm.queue({ toolCalls: [{ name: 'add_step', args: { type: 'filter' } }] }, { text: 'Added a filter.' });
    const added: string[] = [];
    const result = await generateText({
      model: model(),
      prompt: 'add a filter',
      stopWhen: stepCountIs(3),
      tools: {
        add_step: tool({
          description: 'Adds a step',
          inputSchema: jsonSchema<{ type: string }>({ type: 'object', properties: { type: { type: 'string' } }, required: ['type'] }),
          execute: async ({ type }) => {
            added.push(type);
            return { ok: true };
          },
        }),
      },
    });
    expect(added).toEqual(['filter']);
    expect(result.text).toBe('Added a filter.');
    const second = llm.requests.at(-1)!;
    expect(second.tools.map((t) => t.name)).toEqual(['add_step']);
    expect(second.messages.some((m) => m.role === 'tool')).toBe(true);
  });

  it('asks for structured output with a JSON schema and reads the object', async () => {
    llm.queue({ text: JSON.stringify({ label: 'positive' }) });
    const { output } = await generateText({
      model: model(),
      prompt: 'classify',
      output: Output.object({
        schema: jsonSchema<{ label: string }>({ type: 'object', properties: { label: { type: 'string' } }, required: ['label'], additionalProperties: false }),
      }),
    });
    expect(output).toEqual({ label: 'positive' });
    expect(llm.requests.at(-1)!.responseFormat).toMatchObject({ type: 'json_schema' });
  });

  it('reads a rate limit with its Retry-After, a bad key, a refusal, an outage and a malformed answer', async () => {
    const failureOf = async (reply: Parameters<LlmServer['queue']>[0] | null, extra: Partial<ModelSettings> = {}) => {
      if (reply) llm.queue(reply);
      try {
        await generateText({ model: requireChatModel({ ...settings, ...extra }).model, prompt: 'x', maxRetries: 0 });
      } catch (err) {
        return describeModelFailure(err);
      }
      throw new Error('the call succeeded');
    };
    expect(await failureOf({ status: 429, message: 'Rate limit reached', retryAfterSeconds: 7 })).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterMs: 7000,
      detail: 'Rate limit reached',
      retryable: true,
    });
    // The key is refused before any reply is taken.
    expect(await failureOf(null, { apiKey: 'wrong' })).toMatchObject({ kind: 'auth', status: 401, detail: 'Incorrect API key provided', retryable: false });
    expect(await failureOf({ status: 404, message: 'The model does not exist' })).toMatchObject({ kind: 'rejected', status: 404, retryable: false });
    expect(await failureOf({ status: 503 })).toMatchObject({ kind: 'unavailable', status: 503, retryable: true });
    expect(await failureOf({ malformed: true })).toMatchObject({ kind: 'bad_answer', retryable: true });
  });

  it('says nothing answers when the server is gone', async () => {
    const gone = await startLlmServer();
    const url = gone.url;
    await gone.close();
    try {
      await generateText({ model: requireChatModel({ ...settings, baseUrl: url }).model, prompt: 'x', maxRetries: 0 });
      throw new Error('the call succeeded');
    } catch (err) {
      expect(describeModelFailure(err)).toMatchObject({ kind: 'unreachable', retryable: true });
    }
  });

  it('closes the upstream request when the caller aborts mid-stream', async () => {
    llm.queue({ hang: true, text: 'Partial answer' });
    const controller = new AbortController();
    const result = streamText({ model: model(), prompt: 'long', abortSignal: controller.signal, onError: () => undefined });
    let seen = '';
    for await (const delta of result.textStream) {
      seen += delta;
      if (seen === 'Partial answer') controller.abort();
    }
    const aborted = await llm.waitForAbort();
    expect(aborted.aborted).toBe(true);
    expect(seen).toBe('Partial answer');
  });

  it('embeds texts on the same endpoint, one vector per text, the same text the same vector', async () => {
    const { embeddings } = await embedMany({ model: embeddingModelFor(settings, 'stand-in-embed'), values: ['alpha', 'beta', 'alpha'] });
    expect(embeddings).toHaveLength(3);
    expect(embeddings[0]).toEqual(embeddings[2]);
    expect(embeddings[0]).not.toEqual(embeddings[1]);
    expect(llm.embeddings.at(-1)).toEqual(['alpha', 'beta', 'alpha']);
  });
});
