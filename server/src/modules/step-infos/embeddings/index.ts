import type { EmbeddingConfig } from '../../../config/config';
import type { Embedder } from './embedder';
import { localEmbedder } from './local';
import { OpenAiEmbedder } from './openai';

export { cosine, textHash, type Embedder } from './embedder';
export { features } from './local';

/** The configured model when there is one, else the built-in local embedding. */
export function createEmbedder(config: EmbeddingConfig): Embedder {
  return config.model ? new OpenAiEmbedder({ ...config, model: config.model }) : localEmbedder;
}
