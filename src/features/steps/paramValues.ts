import type { ParamOut } from '../../../server/src/modules/step-infos/step-infos.schemas';

// The param form edits text for numbers and JSON (so half-typed values and {{var.x}} references
// are possible) and real values for the rest. These pure functions convert and check.

export type Draft = Record<string, unknown>;
export type Translate = (id: string, values?: Record<string, string | number>) => string;

const WHOLE_REFERENCE = /^\s*\{\{\s*(var|field)\.[^{}]+\}\}\s*$/;

export function isReference(value: unknown): boolean {
  return typeof value === 'string' && WHOLE_REFERENCE.test(value);
}

/** Text that is a number as that number; any other text as it is, for the server to say what is wrong. */
export const numberOrText = (text: string): string | number => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

/** No value at all, as the server counts it (blank text, an empty list, null). */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/**
 * The required params a step's saved values leave empty: a new step, or a copy of someone else's
 * workflow whose file and dataset params were dropped. The canvas and the form both mark them.
 */
export function missingRequired(params: ParamOut[], values: Record<string, unknown>): ParamOut[] {
  return params.filter((p) => p.required && isEmptyValue(values[p.name]));
}

/** The value as the form's control holds it. */
export function toDraft(param: ParamOut, value: unknown): unknown {
  const v = value === undefined ? param.default : value;
  switch (param.type) {
    case 'number':
      return v === undefined || v === null ? '' : String(v);
    case 'json':
      if (v === undefined || v === null) return '';
      return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
    case 'boolean':
      return isReference(v) ? v : v === true;
    case 'columns':
      return Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : [];
    case 'sort_keys':
      return Array.isArray(v) ? v : typeof v === 'string' && v ? [v] : [];
    default:
      return v === undefined || v === null ? '' : String(v);
  }
}

/** The value to send; null clears the param (merge semantics of param-inputs/partial). */
export function fromDraft(param: ParamOut, draft: unknown): unknown {
  switch (param.type) {
    case 'number': {
      const text = String(draft ?? '').trim();
      if (!text) return null;
      if (isReference(text)) return text;
      return Number(text);
    }
    case 'json': {
      const text = String(draft ?? '').trim();
      if (!text) return null;
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    }
    case 'boolean':
      return draft;
    case 'columns':
    case 'sort_keys':
      return Array.isArray(draft) && draft.length > 0 ? draft : null;
    default: {
      const text = String(draft ?? '');
      return text === '' ? null : text;
    }
  }
}

export const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Server 422 items whose loc is ["body","param_inputs",NAME] → { NAME: msg }. */
export function paramErrorsFrom(error: unknown): Record<string, string> {
  const data = (error as { data?: unknown } | undefined)?.data as { errors?: { msg: string; loc?: (string | number)[] }[] } | undefined;
  const found: Record<string, string> = {};
  for (const item of data?.errors ?? []) {
    const loc = item.loc ?? [];
    if (loc[0] === 'body' && loc[1] === 'param_inputs' && typeof loc[2] === 'string' && !found[loc[2]]) found[loc[2]] = item.msg;
  }
  return found;
}
