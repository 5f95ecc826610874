import type { ParamOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import { checkExpression } from '../../../server/src/engine/expressions';
import { isReference, type Translate } from './paramValues';

// Kept apart from paramValues.ts: the step drafts in the store (loaded on every page, the sign-in
// page included) need paramValues, while only the settings form needs the expression parser.

/** The problem with a draft value, in the page's language, or null when it may be sent. */
export function checkDraft(param: ParamOut, draft: unknown, t: Translate): string | null {
  const empty = draft === '' || draft === null || draft === undefined || (Array.isArray(draft) && draft.length === 0);
  if (empty) return param.required ? t('params.error.required') : null;
  if (isReference(draft)) return null;
  if (param.type === 'number') {
    const text = String(draft).trim();
    const n = Number(text);
    if (!text || !Number.isFinite(n)) return t('params.error.number');
    if (param.integer && !Number.isInteger(n)) return t('params.error.integer');
    if (param.min !== undefined && n < param.min) return t('params.error.min', { min: param.min });
    if (param.max !== undefined && n > param.max) return t('params.error.max', { max: param.max });
  }
  if (param.type === 'json') {
    try {
      JSON.parse(String(draft));
    } catch {
      return t('params.error.json');
    }
  }
  if (param.type === 'expression' && typeof draft === 'string') {
    const problem = checkExpression(draft);
    if (problem) return t(problem.key, problem.values);
  }
  if (param.type === 'enum' && param.options && !param.options.includes(String(draft))) return t('params.error.enum');
  if (typeof draft === 'string' && param.max_length !== undefined && draft.length > param.max_length) {
    return t('params.error.maxLength', { max: param.max_length });
  }
  return null;
}
