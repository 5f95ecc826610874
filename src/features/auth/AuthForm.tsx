import { Button, Link, Stack, type InputProps } from '@chakra-ui/react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { AuthLayout } from '../../components/AuthLayout';
import { TextField } from '../../components/TextField';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useFieldErrors } from './useFieldErrors';

// The shape the sign-in, sign-up and both password pages share: the auth card with a title, a
// column of labelled fields whose errors show under them, one submit button and links below. A
// page keeps only what is its own: its fields, its checks and what happens on submit.

/** The values of a form's fields and their inline errors (useFieldErrors). */
export function useAuthForm<Field extends string>(initial: Record<Field, string>) {
  const [values, setValues] = useState(initial);
  const errors = useFieldErrors<Field>();
  const { clear } = errors;
  const change = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    clear(field);
  };
  return { values, change, ...errors };
}

export type AuthFormState<Field extends string> = ReturnType<typeof useAuthForm<Field>>;

/** One input: `field` is its key in the form's values, the rest goes to the input. */
export interface AuthField<Field extends string> extends Omit<InputProps, 'value' | 'onChange' | 'children'> {
  field: Field;
  label: string;
  helperText?: string;
  /** Shown right under the field (the sign-in page's "Forgot password?"). */
  below?: ReactNode;
}

interface AuthFormProps<Field extends string> {
  title: string;
  subtitle?: string;
  /** Under the card: the way to the other auth pages. */
  footer?: ReactNode;
  form: AuthFormState<Field>;
  fields: AuthField<Field>[];
  submitLabel: string;
  submitting: boolean;
  /** Called on submit (the browser's own submit is prevented, and its validation is off). */
  onSubmit: () => void | Promise<void>;
}

export function AuthForm<Field extends string>({ title, subtitle, footer, form, fields, submitLabel, submitting, onSubmit }: AuthFormProps<Field>) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit();
  };
  return (
    <AuthLayout title={title} subtitle={subtitle} footer={footer}>
      <form onSubmit={submit} noValidate>
        <Stack gap="5">
          {fields.map(({ field, below, ...inputProps }) => {
            const input = (
              <TextField
                key={field}
                {...inputProps}
                value={form.values[field]}
                error={form.errorFor(field)}
                onChange={(event) => form.change(field, event.target.value)}
              />
            );
            return below ? (
              <Stack key={field} gap="2">
                {input}
                {below}
              </Stack>
            ) : (
              input
            );
          })}
          <Button type="submit" colorPalette="brand" size="lg" loading={submitting}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

/** A link to another auth page in the current language, in the brand colour. */
export function AuthLink({ to, children, subtle }: { to: string; children: ReactNode; subtle?: boolean }) {
  return (
    <Link asChild colorPalette="brand" color="colorPalette.fg" {...(subtle ? { textStyle: 'sm' } : { fontWeight: 'semibold' })}>
      <LocaleLink to={to}>{children}</LocaleLink>
    </Link>
  );
}
