import type { Db } from '../../db/database';
import type { UsersTable } from '../../db/schema';
import { stepCategories, type StepCategory, type StepTypeDescription } from '../../engine/step-types';
import { translate, type Language } from '../../i18n/messages';
import { forbidden, notFound } from '../../lib/errors';
import { effectiveInfos, localeOf, textsOf, type EffectiveInfo } from './catalogue';
import type { StepInfoSearch } from './search.service';
import type {
  ByTagPatchIn,
  ByTagPatchOut,
  CategoriesOut,
  CategorizedOut,
  CategoryOut,
  CategoryWithInfosOut,
  StepInfoListQuery,
  StepInfoLocale,
  StepInfoOut,
  StepInfoPage,
} from './step-infos.schemas';
import { Prices } from '../usage/prices';
import { StepInfosRepository, type StepInfoOverride } from './step-infos.repository';

/** Who is asking: admins may change how infos are shown. */
type Caller = Pick<UsersTable, 'id' | 'role'>;

/**
 * The step catalogue (the engine's step types as infos): listing, filtering, search (through
 * `StepInfoSearch`), categories, and admins' display overrides.
 */
export class StepInfosService {
  private readonly repo: StepInfosRepository;

  constructor(
    db: Db,
    private readonly search: StepInfoSearch,
    /** Configured prices: the cost hints show what a run is charged. */
    private readonly prices: Prices,
  ) {
    this.repo = new StepInfosRepository(db);
  }

  // ---- reading ----

  async list(query: StepInfoListQuery, language: Language): Promise<StepInfoPage> {
    const tags = (query.tag ?? [])
      .flatMap((t) => t.split(','))
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean);
    let infos = (await effectiveInfos(this.repo)).filter(
      (info) => (!query.category || info.category === query.category) && (!tags.length || info.tags.some((t) => tags.includes(t.toLowerCase()))),
    );
    const q = query.q?.trim();
    let ranking: StepInfoPage['ranking'] = 'catalogue';
    let scores = new Map<string, number>();
    if (q) {
      ({ ranking, scores } = await this.search.rank(q, infos));
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
    const info = (await effectiveInfos(this.repo)).find((i) => i.type.id === id);
    if (!info) throw notFound('server.stepInfos.notFound');
    return this.toOut(info, language);
  }

  async categories(language: Language): Promise<CategoriesOut> {
    const infos = await effectiveInfos(this.repo);
    const items = stepCategories.map((id) => this.categoryOut(id, infos, language));
    return { items, total: items.length };
  }

  async category(id: string, language: Language): Promise<CategoryWithInfosOut> {
    const category = stepCategories.find((c) => c === id);
    if (!category) throw notFound('server.stepInfos.categoryNotFound');
    return this.categoryWithInfos(category, await effectiveInfos(this.repo), language);
  }

  async categorized(language: Language): Promise<CategorizedOut> {
    const infos = await effectiveInfos(this.repo);
    const items = stepCategories.map((id) => this.categoryWithInfos(id, infos, language));
    return { items, total: items.length };
  }

  // ---- admins: display metadata by tag ----

  /**
   * Changes the name, description, category or tags of every info carrying `tag`. Texts are per
   * language (`locale`, else the caller's): an English rename leaves the Chinese name as it was.
   * A value equal to the built-in one, or null, removes the override.
   */
  async patchByTag(user: Caller, tag: string, patch: ByTagPatchIn, language: Language): Promise<ByTagPatchOut> {
    if (user.role !== 'admin') throw forbidden();
    const wanted = tag.trim().toLowerCase();
    const matching = (await effectiveInfos(this.repo)).filter((info) => info.tags.some((t) => t.toLowerCase() === wanted));
    if (!matching.length) throw notFound('server.stepInfos.tagNotFound', { tag });

    const locale = patch.locale ?? localeOf(language);
    const updated = matching.map((info) => applyPatch(info, patch, locale));
    await this.repo.saveOverrides(updated, user.id);

    const ids = new Set(matching.map((i) => i.type.id));
    const items = (await effectiveInfos(this.repo)).filter((i) => ids.has(i.type.id)).map((i) => this.toOut(i, language));
    return { items, total: items.length, message: translate(language, 'server.stepInfos.updated', { count: items.length }) };
  }

  // ---- shapes ----

  private toOut(info: EffectiveInfo, language: Language): StepInfoOut {
    const { type } = info;
    const zh = language === 'zh-CN' ? type.i18n?.['zh-CN'] : undefined;
    return {
      id: type.id,
      ...textsOf(info, localeOf(language)),
      category: info.category,
      tags: info.tags,
      params: type.params.map((p) => ({
        ...p,
        label: zh?.params?.[p.name]?.label ?? p.label,
        help: zh?.params?.[p.name]?.help ?? p.help,
        ...(p.fields ? { fields: p.fields.map((f) => ({ ...f, label: zh?.params?.[p.name]?.fields?.[f.name] ?? f.label })) } : {}),
      })),
      inputs: type.inputs,
      outputs: type.outputs,
      cost: { ...this.prices.hint(type.id, type.cost), note: zh?.cost_note ?? type.cost.note },
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
