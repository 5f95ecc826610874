import { useCallback, useState } from 'react';
import { useIntl } from 'react-intl';

/** Inline errors for a small form: set them all on submit, clear one as soon as its field changes. */
export function useFieldErrors<Field extends string>() {
  const intl = useIntl();
  const [problems, setProblems] = useState<Partial<Record<Field, string | null>>>({});

  /** Records the problems (message ids) and says whether the form may be sent. */
  const check = useCallback((found: Partial<Record<Field, string | null>>) => {
    setProblems(found);
    return Object.values(found).every((problem) => !problem);
  }, []);

  const clear = useCallback((field: Field) => setProblems((current) => ({ ...current, [field]: null })), []);

  const errorFor = (field: Field): string | null => {
    const id = problems[field];
    return id ? intl.formatMessage({ id }, { min: 8 }) : null;
  };

  return { check, clear, errorFor };
}
