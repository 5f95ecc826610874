import type { Db } from '../../db/database';
import { upstreamFailed } from '../../lib/errors';
import type { Log } from '../../lib/logger';
import { effectiveInfos, textsOf, type EffectiveInfo } from './catalogue';
import { cosine, features, textHash, type Embedder } from './embeddings';
import type { EnsureEmbeddingsOut } from './step-infos.schemas';
import { StepInfosRepository } from './step-infos.repository';

/** A search result must score at least this share of the best one, so the list holds the plausible few. */
const RELATIVE_CUTOFF = 0.4;
/** …and at least this much: below it, a vector shares nothing but hashing noise with the query. */
const ABSOLUTE_CUTOFF = 0.05;
/** After a failed call to a remote model, searches use what is stored instead of retrying for this long. */
const RETRY_REMOTE_AFTER_MS = 60_000;
const QUERY_CACHE_SIZE = 200;

export interface Ranking {
  /** meaning: by embedding similarity; text: by words, because no vectors could be had. */
  ranking: 'meaning' | 'text';
  /** Scores of the plausible matches only, keyed by step type id. */
  scores: Map<string, number>;
}

/**
 * Search of the step catalogue by meaning: each info's text is embedded and stored (keyed by model
 * and the text's hash), a query is embedded with the same model and the infos ranked by cosine.
 * Without vectors (a remote model failing) it ranks by words instead.
 */
export class StepInfoSearch {
  private readonly repo: StepInfosRepository;
  private ensuring: Promise<EnsureEmbeddingsOut> | null = null;
  private remoteFailedAt = 0;
  private readonly queryVectors = new Map<string, number[]>();

  constructor(
    db: Db,
    private readonly embedder: Embedder,
    private readonly log?: Log,
  ) {
    this.repo = new StepInfosRepository(db);
  }

  /**
   * Computes and stores an embedding for each info whose text changed since its last one (or that
   * has none) with the configured model. Concurrent calls in one process share one run.
   */
  ensureEmbeddings(): Promise<EnsureEmbeddingsOut> {
    this.ensuring ??= this.computeEmbeddings().finally(() => {
      this.ensuring = null;
    });
    return this.ensuring;
  }

  /** Scores for the candidates that match `q`: by meaning when vectors can be had, else by words. */
  async rank(q: string, candidates: EffectiveInfo[]): Promise<Ranking> {
    try {
      const vectors = await this.catalogueVectors();
      if (vectors.size) {
        const query = await this.queryVector(q);
        const scores = new Map(candidates.map((info) => [info.type.id, cosine(query, vectors.get(info.type.id) ?? [])]));
        return { ranking: 'meaning', scores: plausible(scores) };
      }
    } catch (err) {
      this.remoteFailedAt = Date.now();
      this.log?.warn({ err, model: this.embedder.model }, 'search by meaning unavailable; searching by words');
    }
    return { ranking: 'text', scores: plausible(textScores(q, candidates)) };
  }

  private async computeEmbeddings(): Promise<EnsureEmbeddingsOut> {
    const infos = await effectiveInfos(this.repo);
    const stored = new Map((await this.repo.embeddings(this.embedder.model)).map((e) => [e.step_type_id, e]));
    const documents = infos.map((info) => ({ id: info.type.id, text: documentText(info) }));
    const stale = documents.map((d) => ({ ...d, hash: textHash(d.text) })).filter((d) => stored.get(d.id)?.text_hash !== d.hash);

    let vectors: number[][] = [];
    if (stale.length) {
      try {
        vectors = await this.embedder.embed(stale.map((d) => d.text));
      } catch (err) {
        this.remoteFailedAt = Date.now();
        this.log?.warn({ err, model: this.embedder.model }, 'embedding the step catalogue failed');
        throw upstreamFailed('server.stepInfos.embeddingFailed');
      }
      await this.repo.saveEmbeddings(
        this.embedder.model,
        stale.map((d, i) => ({ step_type_id: d.id, text_hash: d.hash, vector: vectors[i] })),
      );
    }
    const dimensions = vectors[0]?.length ?? [...stored.values()][0]?.vector.length ?? 0;
    return { model: this.embedder.model, dimensions, total: infos.length, computed: stale.length, unchanged: infos.length - stale.length };
  }

  /**
   * The stored vectors, brought up to date first when that is cheap or needed: always with the
   * local model; with a remote one unless it failed a moment ago and some vectors exist already.
   * So the first search ensures embeddings by itself.
   */
  private async catalogueVectors(): Promise<Map<string, number[]>> {
    const stored = await this.repo.embeddings(this.embedder.model);
    const remoteResting = Date.now() - this.remoteFailedAt < RETRY_REMOTE_AFTER_MS;
    if (!(remoteResting && stored.length)) {
      const infos = await effectiveInfos(this.repo);
      const hashes = new Map(stored.map((e) => [e.step_type_id, e.text_hash]));
      if (infos.some((info) => hashes.get(info.type.id) !== textHash(documentText(info)))) {
        try {
          await this.ensureEmbeddings();
          return new Map((await this.repo.embeddings(this.embedder.model)).map((e) => [e.step_type_id, e.vector]));
        } catch (err) {
          if (!stored.length) throw err;
        }
      }
    }
    return new Map(stored.map((e) => [e.step_type_id, e.vector]));
  }

  private async queryVector(q: string): Promise<number[]> {
    const key = q.toLowerCase();
    const cached = this.queryVectors.get(key);
    if (cached) return cached;
    const [vector] = await this.embedder.embed([q]);
    if (this.queryVectors.size >= QUERY_CACHE_SIZE) this.queryVectors.delete(this.queryVectors.keys().next().value!);
    this.queryVectors.set(key, vector);
    return vector;
  }
}

/**
 * What an info's embedding is made from: its English and Chinese texts (with overrides), tags and
 * param labels, so a query in either language finds it. Its hash tells when to embed again.
 */
function documentText(info: EffectiveInfo): string {
  const en = textsOf(info, 'en');
  const cn = textsOf(info, 'cn');
  const zh = info.type.i18n?.['zh-CN'];
  return [
    en.name,
    `Tags: ${info.tags.join(', ')}`,
    en.description,
    `Settings: ${info.type.params.map((p) => p.label).join(', ')}`,
    cn.name === en.name ? '' : cn.name,
    cn.description === en.description ? '' : cn.description,
    zh?.params
      ? Object.values(zh.params)
          .map((p) => p.label)
          .join('，')
      : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The matches worth showing: near enough to the best one, and above noise. */
function plausible(scores: Map<string, number>): Map<string, number> {
  const best = Math.max(0, ...scores.values());
  const cutoff = Math.max(ABSOLUTE_CUTOFF, best * RELATIVE_CUTOFF);
  return new Map([...scores].filter(([, score]) => score >= cutoff));
}

/**
 * The fallback when no vectors can be had: the query's words (stemmed, synonyms folded, as the
 * local embedding does) found in the name count most, then tags, then the description.
 */
function textScores(q: string, candidates: EffectiveInfo[]): Map<string, number> {
  const words = [...features(q).keys()].filter((k) => k.startsWith('w:') || k.startsWith('b:'));
  const scores = new Map<string, number>();
  if (!words.length) return scores;
  for (const info of candidates) {
    const name = features(`${textsOf(info, 'en').name} ${textsOf(info, 'cn').name}`);
    const tags = features(info.tags.join(' '));
    const description = features(documentText(info));
    let score = 0;
    for (const word of words) score += name.has(word) ? 3 : tags.has(word) ? 2 : description.has(word) ? 1 : 0;
    if (score > 0) scores.set(info.type.id, score / (3 * words.length));
  }
  return scores;
}
