import type { Translate } from './describeResponse';

// A validation error names its field twice: `loc` for code (["body", "invitation_code"], which
// forms use to put the message under the field) and, in the notice, a label for people. The
// notice must say the field as the user sees it on the page, in their language, never an API
// name like invitation_code or stepId (issue 11/13). The server sends `label` where only it knows
// the words (a step's param, e.g. “File”); for the API's own field names the browser has these.

// The label of an API field is `notices.field.<its name in camelCase>`, or of the name it stands
// for here. Kept as short lists: this module is in the sign-in page's first download.
const SAME_AS: Readonly<Record<string, string>> = {
  username: 'email',
  display_name: 'name',
  locale: 'language',
  param_inputs: 'stepSettings',
  inputs: 'stepInputs',
  stepId: 'step',
  step_id: 'step',
  workflowId: 'workflow',
  workflow_id: 'workflow',
  datasetId: 'dataset',
  file_ids: 'files',
  folder_id: 'folder',
  parent_id: 'folder',
  q: 'search',
  amount_cents: 'amount',
  ai_model: 'model',
};
const LABELLED = new Set(
  (
    'email password newPassword name invitationCode useCase company heardFrom count maxUses expiresAt note subject message category title ' +
    'description language theme colour tags stepType stepSettings stepInputs step workflow dataset file files folder search sort filters page ' +
    'pageSize startDate endDate amount credits quantity role apiKey baseUrl model value format'
  ).split(' '),
);

/** The message id of an API field's label, or undefined for a name the browser has no words for. */
export function fieldLabelId(name: string): string | undefined {
  const label = Object.hasOwn(SAME_AS, name) ? SAME_AS[name] : name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return LABELLED.has(label) ? `notices.field.${label}` : undefined;
}

/** Every label id (for the catalog test). */
export const fieldLabelIds = (): string[] => [...LABELLED].map((label) => `notices.field.${label}`);

/**
 * The field of a validation error as the user sees it: the server's `label`, else the label of the
 * innermost named part of `loc` after the request part (["body", "items", 0, "email"] → Email).
 * Null when there are no words for it (the spec's dotted path is shown then).
 */
export function fieldLabelOf(item: { loc?: ReadonlyArray<string | number>; label?: unknown }, t: Translate): string | null {
  if (typeof item.label === 'string' && item.label.trim()) return item.label.trim();
  const named = (item.loc ?? []).slice(1).filter((part): part is string => typeof part === 'string');
  for (let i = named.length - 1; i >= 0; i--) {
    const id = fieldLabelId(named[i]);
    if (id) return t(id);
  }
  return null;
}
