import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { EmbeddingModel, LanguageModel } from 'ai';
import type { LlmConfig } from '../config/config';
import { DomainError } from '../lib/errors';

/** Where a chat model is reached: the operator's (environment) or a user's own (settings). */
export type ModelSettings = Pick<LlmConfig, 'baseUrl' | 'apiKey' | 'model' | 'provider'> & {
  /** The HTTP client to reach it with: a guarded one for an address a user typed in (see createGuardedFetch). */
  fetch?: typeof fetch;
};

export interface ChatModel {
  /** The AI SDK model every call goes through (generateText, streamText, Output.object…). */
  model: LanguageModel;
  /** `provider:model@host`: what answers are cached under and what usage records name. */
  id: string;
}

const OPENAI_URL = 'https://api.openai.com/v1';

/**
 * The chat model for these settings, or null when none is configured. OpenAI itself goes through
 * its own provider (it follows OpenAI's newest parameters); everything else — Ollama, vLLM,
 * llama.cpp's server, LiteLLM, a gateway — through the OpenAI-compatible one, which sends the
 * plain `/chat/completions` protocol they all speak.
 */
export function chatModelFor(settings: ModelSettings): ChatModel | null {
  if (!settings.model) return null;
  const baseURL = normaliseBaseUrl(settings.baseUrl);
  const host = safeHost(baseURL);
  if (settings.provider === 'openai') {
    const provider = createOpenAI({ baseURL, apiKey: settings.apiKey ?? undefined, fetch: settings.fetch });
    return { model: provider.chat(settings.model), id: `openai:${settings.model}@${host}` };
  }
  const provider = createOpenAICompatible({
    name: 'stepwise-llm',
    baseURL,
    // Local servers often need no key; the header is then left out.
    apiKey: settings.apiKey ?? undefined,
    // Token counts arrive in the last chunk of a stream only when asked for (usage is billed).
    includeUsage: true,
    supportsStructuredOutputs: true,
    fetch: settings.fetch,
  });
  return { model: provider.chatModel(settings.model), id: `openai-compatible:${settings.model}@${host}` };
}

/** An embedding model on the same endpoint (for the AI "embed" step). */
export function embeddingModelFor(settings: ModelSettings, model: string): EmbeddingModel {
  const baseURL = normaliseBaseUrl(settings.baseUrl);
  if (settings.provider === 'openai') return createOpenAI({ baseURL, apiKey: settings.apiKey ?? undefined, fetch: settings.fetch }).embedding(model);
  return createOpenAICompatible({ name: 'stepwise-llm', baseURL, apiKey: settings.apiKey ?? undefined, fetch: settings.fetch }).embeddingModel(model);
}

/** Thrown by whatever needs a model when none is configured: answered 409 with a warning modal that says how to connect one. */
export class NoModelConfigured extends DomainError {
  constructor() {
    super('conflict', 'server.ai.noModel', {}, { modal_id: 'ai-no-model', level: 'warning', content: 'server.ai.noModelHelp', buttons: ['OK'] });
    this.name = 'NoModelConfigured';
  }
}

/** The chat model or NoModelConfigured. */
export function requireChatModel(settings: ModelSettings): ChatModel {
  const chat = chatModelFor(settings);
  if (!chat) throw new NoModelConfigured();
  return chat;
}

/** People paste the endpoint itself (".../v1/chat/completions") or a trailing slash. */
function normaliseBaseUrl(url: string | null): string {
  return (url || OPENAI_URL)
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/(chat\/completions|embeddings)$/, '');
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
