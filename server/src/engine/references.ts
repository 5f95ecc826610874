/**
 * The reference rules every param shares: `{{var.NAME}}` names a workflow variable (same rule as
 * variable names), `{{field.NAME}}` an input column (any name, spaces included). Param validation
 * (`params.ts`) and the expression parser (`expressions/`) both read references through here, so a
 * reference the form accepts is one the run engine understands.
 */

export type Reference = { kind: 'var' | 'field'; name: string };

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const WHOLE_REFERENCE = /^\s*\{\{\s*(var|field)\.([^{}]+?)\s*\}\}\s*$/;

/** Reads one `{{…}}` placeholder's inside; null when it is not a reference we understand. */
export function parseReference(inside: string): Reference | null {
  const match = /^\s*(var|field)\.(.+?)\s*$/.exec(inside);
  if (!match) return null;
  const kind = match[1] as Reference['kind'];
  const name = match[2];
  if (kind === 'var' && !VARIABLE_NAME.test(name)) return null;
  if (kind === 'field' && !name.trim()) return null;
  return { kind, name };
}

/** Every placeholder in a text: the references, and the ones that are malformed. */
export function placeholdersIn(text: string): { references: Reference[]; malformed: string[] } {
  const references: Reference[] = [];
  const malformed: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const reference = parseReference(match[1]);
    if (reference) references.push(reference);
    else malformed.push(match[0]);
  }
  return { references, malformed };
}

/** A whole value that is one reference stands in for any scalar type: its type is known at run time. */
export function isReference(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = WHOLE_REFERENCE.exec(value);
  return match !== null && parseReference(`${match[1]}.${match[2]}`) !== null;
}

/**
 * A text with its `{{var.NAME}}` placeholders replaced by `value(name)` (text params such as a
 * file name or a URL). Answers the first reference that has no value instead (a `{{field.…}}`, or
 * a variable `value` does not know), so the caller can name it in its own error.
 */
export function renderVarTemplate(text: string, value: (name: string) => string | undefined): { text: string } | { unresolved: string } {
  let unresolved: string | null = null;
  const rendered = text.replace(PLACEHOLDER, (whole, inside: string) => {
    const reference = parseReference(inside);
    const replacement = reference?.kind === 'var' ? value(reference.name) : undefined;
    if (replacement === undefined) unresolved ??= whole;
    return replacement ?? whole;
  });
  return unresolved === null ? { text: rendered } : { unresolved };
}
