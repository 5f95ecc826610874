import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { Modal } from '../../../server/src/http/common.schemas';
import { fieldLabelOf } from './fieldLabels';
import type { NewNotice } from './noticesSlice';

// Turns an API answer into the notices the user sees (spec §7 "On a successful response", §8 error
// catalogue). Pure: the caller passes a translator so texts follow the language of the moment.
// A 401 is not handled here: it signs the user out (see noticesMiddleware).

export type Translate = (id: string, values?: Record<string, string | number>) => string;

type Body = Record<string, unknown>;

function isBody(data: unknown): data is Body {
  return typeof data === 'object' && data !== null && !Array.isArray(data);
}

function isModal(value: unknown): value is Modal {
  return isBody(value) && typeof value.modal_id === 'string' && typeof value.content === 'string';
}

function modalNotice(modal: Modal): NewNotice {
  const level = modal.level;
  const type = level === 'success' || level === 'warning' || level === 'error' ? level : 'info';
  return { type, text: modal.content, modal: { ...modal, buttons: Array.isArray(modal.buttons) ? modal.buttons : [] } };
}

/**
 * Spec §5: the message, then the location in brackets: the path after its first element, joined by
 * dots. Where the browser (or the server's `label`) has words for the field, the place is said as
 * the user sees it, in their language (fieldLabels.ts): `{"msg": "Must be at most 40 characters.",
 * "loc": ["body", "invitation_code"]}` → `Must be at most 40 characters. (Invitation code)`; a path
 * it has no words for stays as the spec shows it (`(address.city)`).
 */
export function formatValidationItem(item: { msg: string; loc?: ReadonlyArray<string | number>; label?: unknown }, t: Translate): string {
  const path = (item.loc ?? []).slice(1).join('.');
  if (!path) return item.msg;
  return `${item.msg} (${fieldLabelOf(item, t) ?? path})`;
}

/** The HTTP status of a failed call, or null when no response arrived. */
export function httpStatusOf(error: FetchBaseQueryError): number | null {
  if (typeof error.status === 'number') return error.status;
  if (error.status === 'PARSING_ERROR') return error.originalStatus;
  return null;
}

function hasNoBody(data: unknown): boolean {
  return data === null || data === undefined || data === '';
}

export function describeFailure(error: FetchBaseQueryError, statusText: string | undefined, t: Translate): NewNotice[] {
  const status = httpStatusOf(error);
  if (status === null) return [{ type: 'error', text: t('notices.networkError') }];

  // A body that is not JSON arrives as PARSING_ERROR with the raw text: it has neither field.
  const data = error.data;
  if (error.status !== 'PARSING_ERROR' && hasNoBody(data)) {
    const message = statusText || t('notices.requestFailed', { status: String(status) });
    return [{ type: 'error', text: t('notices.errorWithMessage', { status: String(status), message }) }];
  }
  if (isBody(data)) {
    if (isModal(data.modal)) return [modalNotice(data.modal)];
    if (typeof data.detail === 'string') return [{ type: 'error', text: data.detail }];
    if (Array.isArray(data.errors)) {
      return data.errors
        .filter((item): item is { msg: string; loc?: Array<string | number> } => isBody(item) && typeof item.msg === 'string')
        .map((item) => ({ type: 'error' as const, text: formatValidationItem(item, t) }));
    }
  }
  return [{ type: 'error', text: t('notices.unexpectedError', { status: String(status) }) }];
}

export function describeSuccess(data: unknown): NewNotice[] {
  if (!isBody(data)) return [];
  const notices: NewNotice[] = [];
  if (isModal(data.modal)) notices.push(modalNotice(data.modal));
  else if (typeof data.message === 'string' && data.message) notices.push({ type: 'success', text: data.message });
  if (Array.isArray(data.warnings)) {
    for (const warning of data.warnings) if (typeof warning === 'string') notices.push({ type: 'warning', text: warning });
  }
  return notices;
}
