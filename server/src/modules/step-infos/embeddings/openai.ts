import OpenAI from 'openai';
import type { EmbeddingConfig } from '../../../config/config';
import type { Embedder } from './embedder';

const DEFAULT_API_URL = 'https://api.openai.com/v1';
/** Inputs per request: well under every provider's limit, few enough round trips for a catalogue. */
const BATCH_SIZE = 64;

/**
 * An OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Azure-compatible gateways, Ollama, vLLM,
 * LiteLLM…), through the official client so retries, timeouts and error shapes are its problem.
 */
export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  private readonly client: OpenAI;

  constructor(private readonly config: EmbeddingConfig & { model: string }) {
    this.model = `openai:${config.model}`;
    this.client = new OpenAI({
      // Local gateways often need no key, but the client insists on one.
      apiKey: config.apiKey || 'no-key',
      // Accept the endpoint itself too: people paste ".../v1/embeddings".
      baseURL: (config.apiUrl || DEFAULT_API_URL).replace(/\/+$/, '').replace(/\/embeddings$/, ''),
      maxRetries: 2,
      timeout: 30_000,
    });
  }

  async embed(texts: string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += BATCH_SIZE) {
      const batch = texts.slice(start, start + BATCH_SIZE);
      const res = await this.client.embeddings.create({ model: this.config.model, input: batch, encoding_format: 'float' });
      const ordered = [...res.data].sort((a, b) => a.index - b.index);
      if (ordered.length !== batch.length) throw new Error(`Embedding API answered ${ordered.length} vectors for ${batch.length} texts`);
      vectors.push(...ordered.map((d) => d.embedding));
    }
    return vectors;
  }
}
