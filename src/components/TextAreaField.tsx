import { Field, Textarea, type TextareaProps } from '@chakra-ui/react';

interface TextAreaFieldProps extends TextareaProps {
  label: string;
  error?: string | null;
  helperText?: string;
}

/** TextField's multi-line sibling: a labelled textarea with its hint and inline error. */
export function TextAreaField({ label, error, helperText, ...textareaProps }: TextAreaFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <Textarea rows={6} {...textareaProps} />
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : helperText ? <Field.HelperText>{helperText}</Field.HelperText> : null}
    </Field.Root>
  );
}
