import type { Log } from '../../lib/logger';
import type { Db } from '../../db/database';
import { cosine, textHash, type Embedder } from '../../engine/embeddings/embedder';
import { features } from '../../engine/embeddings/local';
import { stepCategories, stepTypes, type StepTypeDescription } from '../../engine/step-types';
import { translate, type Language } from '../../i18n/messages';
import { forbidden, notFound, upstreamFailed } from '../../lib/errors';
import type { AuthUser } from '../../plugins/authentication';
import type {
  ByTagPatchIn,
  ByTagPatchOut,
  CategoriesOut,
  CategorizedOut,
  CategoryOut,
  CategoryWithInfosOut,
  EnsureEmbeddingsOut,
  StepCategory,
  StepInfoListQuery,
  StepInfoLocale,
  StepInfoOut,
  StepInfoPage,
} from './step-infos.schemas';
import { StepInfosRepository, type StepInfoOverride } from './step-infos.repository';

/** A search result must score at least this share of the best one, so the list holds the plausible few. */
const RELATIVE_CUTOFF = 0.4;
/** …and at least this much: below it, a vector shares nothing but hashing noise with the query. */
const ABSOLUTE_CUTOFF = 0.05;
/** After a failed call to a remote model, searches use what is stored instead of retrying for this long. */
const RETRY_REMOTE_AFTER_MS = 60_000;
const QUERY_CACHE_SIZE = 200;

const localeOf = (language: Language): StepInfoLocale => (language === 'zh-CN' ? 'cn' : 'en');

/** A step type with an admin's overrides applied: what every answer is made from. */
interface EffectiveInfo {
  type: StepTypeDescription;
  override: StepInfoOverride | undefined;
  category: StepCategory;
  tags: string[];
}

export class StepInfosService {
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

  // ---- reading ----

  async list(query: StepInfoListQuery, language: Language): Promise<StepInfoPage> {
    const tags = (query.tag ?? []).flatMap((t) => t.split(',')).map((t) => t.trim().toLowerCase()).filter(Boolean);
    let infos = (await this.effectiveInfos()).filter(
      (info) => (!query.category || info.category === query.category) && (!tags.length || info.tags.some((t) => tags.includes(t.toLowerCase()))),
    );
    const q = query.q?.trim();
    let ranking: StepInfoPage['ranking'] = 'catalogue';
    let scores = new Map<string, number>();
    if (q) {
      ({ ranking, scores } = await this.rank(q, infos));
      infos = infos.filter((info) => scores.has(info.type.id)).sort((a, b) => scores.get(b.type.id)! - scores.get(a.type.id)!);
    }
    const start = (query.page - 1) * query.page_size;
    const items = infos.slice(start, start + query.page_size).map((info) => {
      const out = this.toOut(info, language);
      return q ? { ...out, score: Math.round(scores.get(info.type.id)! * 10_000) / 10_000 } : out;
    });
    return { items, total: infos.length, page: query.page, page_size: query.page_size, ranking };
  }

  async get(id: string, language: Language): Promise<StepInfoOut> {
    const info = (await this.effectiveInfos()).find((i) => i.type.id === id);
    if (!info) throw notFound('server.stepInfos.notFound');
    return this.toOut(info, language);
  }

  async categories(language: Language): Promise<CategoriesOut> {
    const infos = await this.effectiveInfos();
    const items = stepCategories.map((id) => this.categoryOut(id, infos, language));
    return { items, total: items.length };
  }

  async category(id: string, language: Language): Promise<CategoryWithInfosOut> {
    const category = stepCategories.find((c) => c === id);
    if (!category) throw notFound('server.stepInfos.categoryNotFound');
    return this.categoryWithInfos(category, await this.effectiveInfos(), language);
  }

  async categorized(language: Language): Promise<CategorizedOut> {
    const infos = await this.effectiveInfos();
    const items = stepCategories.map((id) => this.categoryWithInfos(id, infos, language));
    return { items, total: items.length };
  }

  // ---- admins: display metadata by tag ----

  /**
   * Changes the name, description, category or tags of every info carrying `tag`. Texts are per
   * language (`locale`, else the caller's): an English rename leaves the Chinese name as it was.
   * A value equal to the built-in one, or null, removes the override.
   */
  async patchByTag(user: AuthUser, tag: string, patch: ByTagPatchIn, language: Language): Promise<ByTagPatchOut> {
    if (user.role !== 'admin') throw forbidden();
    const wanted = tag.trim().toLowerCase();
    const matching = (await this.effectiveInfos()).filter((info) => info.tags.some((t) => t.toLowerCase() === wanted));
    if (!matching.length) throw notFound('server.stepInfos.tagNotFound', { tag });

    const locale = patch.locale ?? localeOf(language);
    const updated = matching.map((info) => applyPatch(info, patch, locale));
    await this.repo.saveOverrides(updated, user.id);

    const ids = new Set(matching.map((i) => i.type.id));
    const items = (await this.effectiveInfos()).filter((i) => ids.has(i.type.id)).map((i) => this.toOut(i, language));
    return { items, total: items.length, message: translate(language, 'server.stepInfos.updated', { count: items.length }) };
  }

  // ---- search by meaning ----

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

  private async computeEmbeddings(): Promise<EnsureEmbeddingsOut> {
    const infos = await this.effectiveInfos();
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

  /** Scores for the candidates that match `q`: by meaning when vectors can be had, else by words. */
  private async rank(q: string, candidates: EffectiveInfo[]): Promise<{ ranking: 'meaning' | 'text'; scores: Map<string, number> }> {
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

  /**
   * The stored vectors, brought up to date first when that is cheap or needed: always with the
   * local model; with a remote one unless it failed a moment ago and some vectors exist already.
   * So the first search ensures embeddings by itself.
   */
  private async catalogueVectors(): Promise<Map<string, number[]>> {
    const stored = await this.repo.embeddings(this.embedder.model);
    const remoteResting = Date.now() - this.remoteFailedAt < RETRY_REMOTE_AFTER_MS;
    if (!(remoteResting && stored.length)) {
      const infos = await this.effectiveInfos();
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

  // ---- shapes ----

  private async effectiveInfos(): Promise<EffectiveInfo[]> {
    const overrides = await this.repo.overrides();
    return stepTypes.map((type) => {
      const override = overrides.get(type.id);
      const category = stepCategories.find((c) => c === override?.category) ?? type.category;
      return { type, override, category, tags: override?.tags ?? type.tags };
    });
  }

  private toOut(info: EffectiveInfo, language: Language): StepInfoOut {
    const { type } = info;
    const zh = language === 'zh-CN' ? type.i18n?.['zh-CN'] : undefined;
    return {
      id: type.id,
      ...textsOf(info, localeOf(language)),
      category: info.category,
      tags: info.tags,
      params: type.params.map((p) => ({ ...p, label: zh?.params?.[p.name]?.label ?? p.label, help: zh?.params?.[p.name]?.help ?? p.help })),
      inputs: type.inputs,
      outputs: type.outputs,
      cost: { ...type.cost, note: zh?.cost_note ?? type.cost.note },
      customized: info.override !== undefined,
    };
  }

  private categoryOut(id: StepCategory, infos: EffectiveInfo[], language: Language): CategoryOut {
    return {
      id,
      name: translate(language, `server.stepInfos.category.${id}.name`),
      description: translate(language, `server.stepInfos.category.${id}.description`),
      count: infos.filter((i) => i.category === id).length,
    };
  }

  private categoryWithInfos(id: StepCategory, infos: EffectiveInfo[], language: Language): CategoryWithInfosOut {
    return { ...this.categoryOut(id, infos, language), items: infos.filter((i) => i.category === id).map((i) => this.toOut(i, language)) };
  }
}

/**
 * Name and description in a language. Chinese: an admin's Chinese text, else the built-in Chinese
 * text, else the English one (an admin's or built-in). English: an admin's, else built-in.
 */
function textsOf(info: EffectiveInfo, locale: StepInfoLocale): { name: string; description: string } {
  const { type, override } = info;
  const en = { name: override?.texts.en?.name ?? type.name, description: override?.texts.en?.description ?? type.description };
  if (locale === 'en') return en;
  const zh = type.i18n?.['zh-CN'];
  return {
    name: override?.texts.cn?.name ?? zh?.name ?? en.name,
    description: override?.texts.cn?.description ?? zh?.description ?? en.description,
  };
}

/** The built-in text of a field in a locale: what an override equal to it is the same as. */
function builtInText(type: StepTypeDescription, locale: StepInfoLocale, field: 'name' | 'description'): string | undefined {
  return locale === 'en' ? type[field] : type.i18n?.['zh-CN']?.[field];
}

function applyPatch(info: EffectiveInfo, patch: ByTagPatchIn, locale: StepInfoLocale): StepInfoOverride {
  const { type } = info;
  const current = info.override;
  const texts = { en: { ...current?.texts.en }, cn: { ...current?.texts.cn } };
  for (const field of ['name', 'description'] as const) {
    const value = patch[field];
    if (value === undefined) continue;
    const text = value?.trim();
    if (!text || text === builtInText(type, locale, field)) delete texts[locale][field];
    else texts[locale][field] = text;
  }
  let category = current?.category ?? null;
  if (patch.category !== undefined) category = patch.category === type.category ? null : patch.category;
  let tags = current?.tags ?? null;
  if (patch.tags !== undefined) {
    const next = patch.tags === null ? null : [...new Set(patch.tags.map((t) => t.trim().toLowerCase()).filter(Boolean))];
    tags = next === null || next.join('\u0000') === type.tags.join('\u0000') ? null : next;
  }
  return {
    step_type_id: type.id,
    category,
    tags,
    texts: Object.fromEntries(Object.entries(texts).filter(([, t]) => Object.keys(t).length)),
  };
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
    zh?.params ? Object.values(zh.params).map((p) => p.label).join('，') : '',
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
