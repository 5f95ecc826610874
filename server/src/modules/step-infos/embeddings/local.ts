import type { Embedder } from './embedder';

/**
 * A text embedding that needs no model, no network and no download, so search by meaning works
 * on a fresh install and in tests.
 *
 * Why it is good enough: the catalogue is a few dozen short, carefully written descriptions and the
 * queries are a handful of plain words ("remove duplicate rows", "combine two tables"). What such a
 * query shares with the right description is its vocabulary, once words are reduced to a common
 * form. So: lower-case, drop filler words, strip English suffixes (a light stemmer), and map the
 * words people use for the same thing to one concept (repeated/duplicate/dupe → duplicate,
 * merge/combine/join → combine, record/row/line → row…). Concepts and stems are hashed into a
 * fixed-size vector (the hashing trick, with a sign bit so collisions cancel rather than add up),
 * with sub-linear term weights; character trigrams add a faint signal for typos and partial words
 * ("dedup"), and Chinese text contributes character bigrams, so Chinese queries match the Chinese
 * descriptions. L2-normalised, the cosine of two vectors is the weighted overlap of their concepts.
 * It knows nothing beyond its synonym table; a real model (EMBEDDING_MODEL) does better on open
 * questions and is used whenever it is configured.
 */

export const LOCAL_EMBEDDING_MODEL = 'local-hash-v1';
export const LOCAL_EMBEDDING_DIMENSIONS = 1024;

const TRIGRAM_WEIGHT = 0.08;
const CJK_UNIGRAM_WEIGHT = 0.3;

const STOPWORDS = new Set(
  (
    'a an the of to in on at for by with and or nor from into onto as it its is are was were be been being this that these those ' +
    'i me my we our us you your he she they them their there here some any about can could would should will shall may might must ' +
    'want need like eg e g etc so do does did how what which who whom whose when why then than please just also other others too ' +
    'very really up out over under again more most such own same both few no not only if but because while until after before via ' +
    'let lets get got make makes made thing things something way one ones'
  ).split(' '),
);

/** Words people use for the same thing, grouped under one concept. Base forms; inflections follow via the stemmer. */
const CONCEPT_GROUPS: Record<string, string[]> = {
  duplicate: [
    'duplicate',
    'duplicates',
    'duplicated',
    'dupe',
    'dupes',
    'dup',
    'dups',
    'dedupe',
    'dedup',
    'deduplicate',
    'deduplication',
    'repeated',
    'repeat',
    'repeating',
    'doubled',
    'double',
    'identical',
    'twice',
    'redundant',
    'unique',
    'distinct',
  ],
  remove: ['remove', 'delete', 'drop', 'eliminate', 'discard', 'erase', 'exclude', 'rid', 'purge', 'omit', 'strip'],
  keep: ['keep', 'retain', 'preserve', 'only'],
  filter: ['filter', 'where', 'condition', 'conditions', 'subset', 'criteria', 'criterion', 'matching'],
  row: ['row', 'record', 'line', 'entry', 'item', 'observation', 'rows', 'records'],
  table: ['table', 'dataset', 'data', 'sheet', 'spreadsheet', 'tabular', 'datasets', 'tables'],
  column: ['column', 'field', 'attribute', 'property', 'columns', 'fields'],
  combine: ['combine', 'merge', 'join', 'unite', 'blend', 'consolidate', 'link', 'lookup', 'vlookup', 'relate', 'enrich'],
  append: ['append', 'stack', 'concatenate', 'concat', 'union', 'underneath', 'below'],
  ai: ['ai', 'llm', 'gpt', 'chatgpt', 'openai', 'claude', 'gemini', 'artificial', 'intelligence', 'chatbot', 'genai'],
  ask: ['ask', 'question', 'inquire', 'prompt'],
  api: ['api', 'apis', 'endpoint', 'webhook', 'rest', 'http', 'https', 'url', 'web', 'service', 'server'],
  call: ['call', 'request', 'invoke', 'fetch', 'hit', 'ping', 'post', 'send'],
  export: ['export', 'save', 'store', 'output', 'download', 'dump'],
  import: ['import', 'load', 'read', 'upload', 'ingest'],
  sort: ['sort', 'order', 'rank', 'arrange', 'ascending', 'descending', 'sorted'],
  aggregate: ['aggregate', 'group', 'summarise', 'summarize', 'summary', 'total', 'totals', 'sum', 'count', 'statistics', 'stats', 'pivot', 'average', 'mean'],
  rename: ['rename', 'relabel', 'retitle'],
  limit: ['limit', 'top', 'head', 'sample', 'cap', 'truncate'],
  each: ['each', 'every', 'per', 'individually'],
  code: ['code', 'script', 'javascript', 'js', 'program', 'programming', 'function', 'custom'],
  calculate: ['calculate', 'compute', 'formula', 'derive', 'expression', 'arithmetic', 'math'],
  file: ['file', 'files', 'document', 'documents', 'doc', 'pdf'],
  folder: ['folder', 'directory', 'dir', 'folders'],
  add: ['add', 'new', 'create', 'insert'],
  csv: ['csv', 'comma'],
};

// ---- words ----

const isVowel = (c: string) => 'aeiou'.includes(c);

/** A light English stemmer: enough to meet "duplicates", "duplicated" and "duplicate" in one form. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(xes|zes|ches|shes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);

  for (const suffix of ['ing', 'ed']) {
    const base = w.slice(0, -suffix.length);
    if (w.endsWith(suffix) && base.length >= 3 && [...base].some(isVowel)) {
      w = /([^aeiouls])\1$/.test(base) ? base.slice(0, -1) : base;
      break;
    }
  }
  if (w.endsWith('ly') && w.length > 5) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** Concepts nearly every step mentions: they say little about which step is meant, so they weigh less. */
const GENERIC: Record<string, number> = { row: 0.4, table: 0.4, column: 0.5, each: 0.6, file: 0.6, add: 0.6 };

const CONCEPTS = new Map<string, string>();
for (const [concept, words] of Object.entries(CONCEPT_GROUPS)) {
  for (const word of words) CONCEPTS.set(stem(word), concept);
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const SEGMENTS = /[\u3400-\u9fff\uf900-\ufaff]+|[\p{L}\p{N}]+/gu;

type Features = Map<string, number>;
const add = (features: Features, key: string, weight: number) => features.set(key, (features.get(key) ?? 0) + weight);

/** The weighted features of a text: concepts or stems, character trigrams, Chinese bigrams. */
export function features(text: string): Features {
  const out: Features = new Map();
  const normalised = text.normalize('NFKC').toLowerCase().replace(/_/g, ' ');
  for (const segment of normalised.match(SEGMENTS) ?? []) {
    if (CJK.test(segment[0])) {
      const chars = [...segment];
      chars.forEach((c) => add(out, `u:${c}`, CJK_UNIGRAM_WEIGHT));
      for (let i = 0; i + 1 < chars.length; i++) add(out, `b:${chars[i]}${chars[i + 1]}`, 1);
      continue;
    }
    if (STOPWORDS.has(segment)) continue;
    const stemmed = stem(segment);
    const term = CONCEPTS.get(stemmed) ?? CONCEPTS.get(segment) ?? stemmed;
    add(out, `w:${term}`, GENERIC[term] ?? 1);
    const padded = `#${segment}#`;
    if (segment.length >= 3) for (let i = 0; i + 3 <= padded.length; i++) add(out, `t:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
  }
  return out;
}

/** FNV-1a, 32 bits: stable across runs and machines, which stored vectors need. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function embedLocal(text: string, dimensions = LOCAL_EMBEDDING_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const [key, weight] of features(text)) {
    const hash = fnv1a(key);
    // Repeating a word should help, but less and less (sub-linear term frequency).
    const value = weight >= 1 ? 1 + Math.log(weight) : weight;
    vector[hash % dimensions] += hash & 0x80000000 ? -value : value;
  }
  const norm = Math.hypot(...vector);
  return norm ? vector.map((v) => v / norm) : vector;
}

export const localEmbedder: Embedder = {
  model: LOCAL_EMBEDDING_MODEL,
  async embed(texts: string[]) {
    return texts.map((text) => embedLocal(text));
  },
};
