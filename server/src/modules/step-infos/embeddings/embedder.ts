import { createHash } from 'node:crypto';

/**
 * Turns texts into vectors whose cosine similarity follows meaning. The local one works offline;
 * a configured OpenAI-compatible model is one more implementation (`openai.ts`).
 * Vectors of different models are never compared: each stored vector is keyed by `model`.
 */
export interface Embedder {
  /** Identifies the vector space, e.g. "local-hash-v1" or "openai:text-embedding-3-small". */
  readonly model: string;
  embed(texts: string[]): Promise<number[][]>;
}

/** Cosine similarity; 0 when either vector is empty or of another length. */
export function cosine(a: number[], b: number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Decides whether a stored vector is stale: the text it was made from has changed. */
export const textHash = (text: string) => createHash('sha256').update(text).digest('hex');
