import { stepCategories, stepDescriptions, type StepCategory, type StepTypeDescription } from '../../engine/step-types';
import type { Language } from '../../i18n/messages';
import type { StepInfoLocale } from './step-infos.schemas';
import type { StepInfosRepository, StepInfoOverride } from './step-infos.repository';

// The catalogue as readers and search both see it: the engine's step types with the admins'
// overrides applied.

/** A step type with an admin's overrides applied: what every answer is made from. */
export interface EffectiveInfo {
  type: StepTypeDescription;
  override: StepInfoOverride | undefined;
  category: StepCategory;
  tags: string[];
}

export const localeOf = (language: Language): StepInfoLocale => (language === 'zh-CN' ? 'cn' : 'en');

export async function effectiveInfos(repo: StepInfosRepository): Promise<EffectiveInfo[]> {
  const overrides = await repo.overrides();
  return stepDescriptions.map((type) => {
    const override = overrides.get(type.id);
    const category = stepCategories.find((c) => c === override?.category) ?? type.category;
    return { type, override, category, tags: override?.tags ?? type.tags };
  });
}

/**
 * Name and description in a language. Chinese: an admin's Chinese text, else the built-in Chinese
 * text, else the English one (an admin's or built-in). English: an admin's, else built-in.
 */
export function textsOf(info: EffectiveInfo, locale: StepInfoLocale): { name: string; description: string } {
  const { type, override } = info;
  const en = { name: override?.texts.en?.name ?? type.name, description: override?.texts.en?.description ?? type.description };
  if (locale === 'en') return en;
  const zh = type.i18n?.['zh-CN'];
  return {
    name: override?.texts.cn?.name ?? zh?.name ?? en.name,
    description: override?.texts.cn?.description ?? zh?.description ?? en.description,
  };
}
