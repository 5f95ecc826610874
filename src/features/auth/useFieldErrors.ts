import { useCallback, useState } from 'react';
import { useIntl } from 'react-intl';

/** A field's problem: a message id of our own check, or a text the server wrote in the user's language. */
type Problem = { id: string } | { text: string };

/**
 * Inline errors for a small form: set them all on submit, clear one as soon as its field changes.
 * The server's 422 items land under their fields too (its checks, like a guessable password, are
 * ones the browser cannot make).
 */
export function useFieldErrors<Field extends string>() {
  const intl = useIntl();
  const [problems, setProblems] = useState<Partial<Record<Field, Problem | null>>>({});

  /** Records the problems (message ids) and says whether the form may be sent. */
  const check = useCallback((found: Partial<Record<Field, string | null>>) => {
    setProblems(Object.fromEntries(Object.entries(found).map(([field, id]) => [field, id ? { id } : null])) as Partial<Record<Field, Problem | null>>);
    return Object.values(found).every((problem) => !problem);
  }, []);

  /**
   * Puts a failed call's 422 items under their fields: `fields` maps a body field name (the second
   * part of `loc`, e.g. `new_password`) to the form's field. Items for other fields are left to the
   * notices, which show every error anyway.
   */
  const showServerErrors = useCallback((error: unknown, fields: Partial<Record<string, Field>>) => {
    const data = (error as { data?: unknown } | undefined)?.data as { errors?: { msg?: unknown; loc?: unknown[] }[] } | undefined;
    const found: Partial<Record<Field, Problem>> = {};
    for (const item of Array.isArray(data?.errors) ? data.errors : []) {
      const loc = Array.isArray(item.loc) ? item.loc : [];
      const field = loc[0] === 'body' && typeof loc[1] === 'string' ? fields[loc[1]] : undefined;
      if (field && typeof item.msg === 'string' && !found[field]) found[field] = { text: item.msg };
    }
    if (Object.keys(found).length) setProblems((current) => ({ ...current, ...found }));
  }, []);

  const clear = useCallback((field: Field) => setProblems((current) => ({ ...current, [field]: null })), []);

  const errorFor = (field: Field): string | null => {
    const problem = problems[field];
    if (!problem) return null;
    return 'text' in problem ? problem.text : intl.formatMessage({ id: problem.id }, { min: 8 });
  };

  return { check, clear, errorFor, showServerErrors };
}
